import { describe, expect, it } from 'vitest';
import { rebaseDraft, sameValue } from './use-draft';

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
