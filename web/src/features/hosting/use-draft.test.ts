import { describe, expect, it } from 'vitest';
import { mergeDraft, sameValue } from './use-draft';

const rebaseDraft = <T>(base: T, draft: T, source: T): T => mergeDraft(base, draft, source).draft;

// A screen's draft when the document changes under it (a save elsewhere, a refused stale save):
// the host's own edits stay, and what they did not touch follows the newer document.

describe('rebaseDraft', () => {
  const base = { name: 'Club', description: 'Old', listed: true, image: 'a.jpg', categories: ['Run'] };

  it('follows the new data while nothing was edited', () => {
    const source = { ...base, name: 'Renamed elsewhere' };
    expect(rebaseDraft(base, base, source)).toBe(source);
  });

  it('keeps the fields the host edited and takes the others from the new data', () => {
    const draft = { ...base, description: 'Mine', categories: ['Run', 'Swim'] };
    const source = { ...base, name: 'Renamed elsewhere', listed: false, categories: ['Bike'] };
    expect(rebaseDraft(base, draft, source)).toEqual({
      name: 'Renamed elsewhere',
      description: 'Mine',
      listed: false,
      image: 'a.jpg',
      categories: ['Run', 'Swim'],
    });
  });

  it('keeps a field the host removed removed, and one they added', () => {
    const { image: _removed, ...rest } = base;
    const draft = { ...rest, extra: 1 } as typeof base & { extra?: number };
    const source = { ...base, name: 'New' } as typeof draft;
    const next = rebaseDraft(base as typeof draft, draft, source);
    expect(next).toEqual({ ...rest, name: 'New', extra: 1 });
    expect('image' in next).toBe(false);
  });

  it('keeps an edited list or text whole', () => {
    expect(rebaseDraft(['a'], ['a', 'b'], ['c'])).toEqual(['a', 'b']);
    expect(rebaseDraft('old', 'mine', 'theirs')).toBe('mine');
  });
});

describe('mergeDraft: a game edited in two tabs', () => {
  const q = (text: string, choices = ['A', 'B']) => ({
    kind: 'vote',
    text,
    secs_to_answer: 20,
    choices: choices.map((c) => ({ text: c })),
  });
  const base = {
    key: 'week-1',
    name: 'Week 1',
    schedule: { open: 'o', standby: 's' },
    questions: [q('One'), q('Two')],
  };

  it("keeps the other tab's edit of one question with this tab's edit of another", () => {
    // Tab A saved question 1's text; tab B, refused, had edited question 2's.
    const theirs = { ...base, questions: [q('One, edited in A'), q('Two')] };
    const mine = { ...base, questions: [q('One'), q('Two, edited in B')] };
    expect(mergeDraft(base, mine, theirs)).toEqual({
      draft: { ...base, questions: [q('One, edited in A'), q('Two, edited in B')] },
      conflicts: [],
    });
  });

  it('merges within a question and its choices, and nested objects field by field', () => {
    const theirs = {
      ...base,
      schedule: { open: 'o2', standby: 's' },
      questions: [q('One', ['A2', 'B']), q('Two')],
    };
    const mine = {
      ...base,
      schedule: { open: 'o', standby: 's3' },
      questions: [{ ...q('One', ['A', 'B3']), secs_to_answer: 30 }, q('Two')],
    };
    expect(mergeDraft(base, mine, theirs)).toEqual({
      draft: {
        ...base,
        schedule: { open: 'o2', standby: 's3' },
        questions: [{ ...q('One', ['A2', 'B3']), secs_to_answer: 30 }, q('Two')],
      },
      conflicts: [],
    });
  });

  it("keeps this tab's value where both changed it, and names the place with theirs", () => {
    const theirs = { ...base, name: 'Week one', questions: [q('Theirs'), q('Two')] };
    const mine = { ...base, questions: [q('Mine'), q('Two, mine')] };
    const { draft, conflicts } = mergeDraft(base, mine, theirs);
    expect(draft).toEqual({ ...base, name: 'Week one', questions: [q('Mine'), q('Two, mine')] });
    expect(conflicts).toEqual([{ path: 'questions.0.text', theirs: 'Theirs' }]);
    // The same change on both sides is no conflict.
    expect(mergeDraft(base, mine, { ...theirs, questions: mine.questions }).conflicts).toEqual([]);
  });

  it('keeps a list whose length both changed whole, and says so', () => {
    const theirs = { ...base, questions: [q('One, theirs'), q('Two')] };
    const mine = { ...base, questions: [q('One'), q('Two'), q('Three')] };
    const { draft, conflicts } = mergeDraft(base, mine, theirs);
    expect(draft).toEqual(mine);
    expect(conflicts).toEqual([{ path: 'questions', theirs: theirs.questions }]);
    // Only one side changed the length: no conflict, that side's list.
    expect(mergeDraft(base, mine, { ...base, name: 'New' })).toEqual({
      draft: { ...mine, name: 'New' },
      conflicts: [],
    });
  });

  it('a field one side removed and the other changed: the host’s removal stays, said', () => {
    const withImage = { ...base, image: 'a.png' };
    const { image: _gone, ...mine } = withImage;
    const { draft, conflicts } = mergeDraft(withImage, mine as typeof withImage, {
      ...withImage,
      image: 'b.png',
    });
    expect('image' in draft).toBe(false);
    expect(conflicts).toEqual([{ path: 'image', theirs: 'b.png' }]);
  });
});

describe('sameValue', () => {
  it('compares data, not the order its fields were written in', () => {
    const q = { kind: 'vote', text: 'Best?', choices: [{ text: 'A' }], voided: false };
    expect(sameValue(q, { voided: false, choices: [{ text: 'A' }], text: 'Best?', kind: 'vote' })).toBe(true);
    expect(sameValue(q, { ...q, choices: [{ text: 'B' }] })).toBe(false);
    // A list's order is data.
    expect(sameValue(['a', 'b'], ['b', 'a'])).toBe(false);
    // As JSON has it: a field left undefined is no field.
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });
});
