import { parseSeason, type SeasonGame, type SeasonQuestion } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { makeSeasonGame } from '../../test/factories';
import {
  addQuestion,
  duplicateGame,
  editableGame,
  followLinkedVote,
  guessesLinkedTo,
  laterSchedule,
  linkableVotes,
  moveQuestion,
  newGame,
  nextKey,
  removeQuestion,
  replaceQuestion,
  settingsToSave,
  withGame,
  withKind,
  withOpenedParts,
} from './season-edit';

const vote = (text: string): SeasonQuestion => ({
  kind: 'vote',
  text,
  secs_to_answer: 20,
  voided: false,
  choices: ['A', 'B'],
});
const guess = (text: string, linked_vote?: number): SeasonQuestion => ({
  kind: 'guess',
  text,
  secs_to_answer: 20,
  voided: false,
  choices: ['A', 'B'],
  ...(linked_vote !== undefined && { linked_vote }),
});
const predict = (text: string, outcome: number | 'crowd' | 'pending'): SeasonQuestion => ({
  kind: 'predict',
  text,
  secs_to_answer: 20,
  voided: false,
  slider: { min: 0, max: 10, step: 1, unit: 'km' },
  outcome,
});

const game = (questions: SeasonQuestion[]) => makeSeasonGame(questions);

const links = (g: SeasonGame) =>
  g.questions.map((q) => (q.kind === 'guess' ? (q.linked_vote ?? null) : q.text));

describe('season edits: linked votes follow their question', () => {
  // v1, g->1, v3, g->3
  const base = game([vote('v1'), guess('g2', 1), vote('v3'), guess('g4', 3)]);

  it('removing a question moves later numbers down and unlinks guesses linked to it', () => {
    expect(links(removeQuestion(base, 0))).toEqual([null, 'v3', 2]);
    expect(links(removeQuestion(base, 1))).toEqual(['v1', 'v3', 2]);
    expect(links(removeQuestion(base, 2))).toEqual(['v1', 1, null]);
  });

  it('moving a question up or down renumbers the links on both sides', () => {
    // v3 up one: v1, g->1, g->(v3 now 2)... order v1, v3, g2, g4
    expect(links(moveQuestion(base, 2, -1))).toEqual(['v1', 'v3', 1, 2]);
    // v1 down one: g2, v1, v3, g4 -> g2 links to 2
    expect(links(moveQuestion(base, 0, 1))).toEqual([2, 'v1', 'v3', 3]);
    // Moving past either end changes nothing.
    expect(moveQuestion(base, 0, -1)).toBe(base);
    expect(moveQuestion(base, 3, 1)).toBe(base);
  });

  it('a question moved several places keeps every link on its vote', () => {
    const moved = moveQuestion(base, 0, 3); // g2, v3, g4, v1
    expect(links(moved)).toEqual([4, 'v3', 2, 'v1']);
    const back = moveQuestion(moved, 3, -3);
    expect(links(back)).toEqual(links(base));
  });

  it('adding a question keeps the links and the new one is empty', () => {
    const added = addQuestion(base, 'predict');
    expect(links(added)).toEqual([...links(base), '']);
    expect(added.questions[4]).toMatchObject({ kind: 'predict', outcome: 'pending', secs_to_answer: 20 });
  });

  it("a vote's choices changed: the guesses linked to it follow, others stay, and the file checks", () => {
    const renamed = { ...vote('v1'), choices: [{ text: 'A' }, { text: 'Soup' }, { text: 'C' }] };
    const after = replaceQuestion(base, 0, renamed);
    const texts = (q: SeasonQuestion | undefined) =>
      q && q.kind !== 'predict' ? q.choices.map((c) => (typeof c === 'string' ? c : c.text)) : [];
    expect(texts(after.questions[1])).toEqual(['A', 'Soup', 'C']);
    expect(texts(after.questions[3])).toEqual(['A', 'B']);
    expect(after.questions[1]).toMatchObject({ linked_vote: 1, text: 'g2' });
    const doc = {
      community: { endpoint: 'club', name: 'C' },
      series: [{ endpoint: 'sss', name: 'S', games: [after] }],
    };
    expect(parseSeason(doc).problems).toEqual([]);
    // Before: the guess kept the vote's old choices, and the file was refused.
    const stale = { ...after, questions: after.questions.map((q, k) => (k === 1 ? base.questions[1]! : q)) };
    expect(parseSeason({ ...doc, series: [{ ...doc.series[0]!, games: [stale] }] }).problems).toHaveLength(1);
  });

  it('a guess may link to the vote questions of its game but itself', () => {
    expect(linkableVotes(base, 1)).toEqual([
      { n: 1, text: 'v1' },
      { n: 3, text: 'v3' },
    ]);
  });
});

describe('season edits: kinds, keys, duplicates', () => {
  it('changing kind keeps the text and, between vote and guess, the choices', () => {
    const g = withKind(vote('Best trail?'), 'guess');
    expect(g).toMatchObject({ kind: 'guess', text: 'Best trail?', choices: [{ text: 'A' }, { text: 'B' }] });
    const p = withKind(g, 'predict');
    expect(p).toMatchObject({ kind: 'predict', text: 'Best trail?', outcome: 'pending' });
    expect('choices' in p).toBe(false);
  });

  it('a kind changed and changed back gets its choices, or its slider and outcome, back', () => {
    const v = {
      ...vote('Best trail?'),
      choices: [{ text: 'River loop' }, { text: 'Park', image: 'park.png' }],
    };
    const p = withKind(v, 'predict');
    expect(withKind(p, 'vote', v)).toMatchObject({ kind: 'vote', choices: v.choices });
    // Without what it left, a fresh pair of empty choices (the old behaviour, for a new question).
    expect(withKind(p, 'vote')).toMatchObject({ choices: [{ text: '' }, { text: '' }] });
    const pr = predict('How far?', 42);
    const back = withKind(withKind(pr, 'guess'), 'predict', pr);
    expect(back).toMatchObject({
      kind: 'predict',
      slider: pr.kind === 'predict' ? pr.slider : {},
      outcome: 42,
    });
    // A guess brought back links its vote again.
    const linked = guess('Most picked?', 1);
    expect(withKind(withKind(linked, 'predict'), 'guess', linked)).toMatchObject({ linked_vote: 1 });
    expect('linked_vote' in withKind(linked, 'vote')).toBe(false);
    // As exported (no voided, no time): back exactly as it was, no field added.
    const bare = { kind: 'vote', text: 'Best?', choices: [{ text: 'A' }, { text: 'B' }] } as SeasonQuestion;
    expect(withKind(withKind(bare, 'predict'), 'vote', bare)).toEqual(bare);
    // A vote brought back links the guesses it had again, with its choices (they follow their vote).
    const pair = game([v, linked]);
    const wiped = replaceQuestion(replaceQuestion(pair, 0, p), 0, withKind(p, 'vote', v), [1]);
    expect(wiped.questions[1]).toMatchObject({ kind: 'guess', linked_vote: 1, choices: v.choices });
  });

  it('a vote that becomes a predict or a guess unlinks its guesses; made a vote again, relinks them', () => {
    // v1, g->1, v3, g->3: question 1 becomes a predict.
    const base = game([vote('v1'), guess('g2', 1), vote('v3'), guess('g4', 3)]);
    const p = withKind(base.questions[0]!, 'predict');
    const unlinked = replaceQuestion(base, 0, p);
    // Before, question 2 kept linked_vote 1: "Question 1 is a predict, not a vote".
    expect(links(unlinked)).toEqual(['v1', null, 'v3', 3]);
    expect(unlinked.questions[1]).toMatchObject({ kind: 'guess', choices: ['A', 'B'] });
    expect(links(replaceQuestion(base, 0, withKind(base.questions[0]!, 'guess')))).toEqual([
      null,
      null,
      'v3',
      3,
    ]);
    // Back to a vote with the guesses it had: linked again. A guess linked elsewhere meanwhile stays.
    const back = withKind(p, 'vote', base.questions[0]);
    expect(links(replaceQuestion(unlinked, 0, back, [1]))).toEqual(['v1', 1, 'v3', 3]);
    const elsewhere = replaceQuestion(unlinked, 1, {
      ...unlinked.questions[1]!,
      linked_vote: 3,
    } as SeasonQuestion);
    expect(links(replaceQuestion(elsewhere, 0, back, [1]))).toEqual(['v1', 3, 'v3', 3]);
    expect(guessesLinkedTo(base, 0)).toEqual([1]);
    expect(guessesLinkedTo(base, 1)).toEqual([]);
  });

  it('a guess brought back takes its linked vote’s choices of now, or loses a link to no vote', () => {
    const linked = guess('Most picked?', 1);
    // Guess to vote, its choices edited, and back: a guess offers its vote's choices, not those.
    const asVote = { ...withKind(linked, 'vote'), choices: [{ text: 'X' }, { text: 'Y' }] };
    const back = withKind(asVote, 'guess', linked);
    expect(back).toMatchObject({ linked_vote: 1, choices: asVote.choices });
    const renamed = { ...vote('Best?'), choices: [{ text: 'C' }, { text: 'D' }] };
    expect(followLinkedVote(game([renamed, back]), 1, back)).toMatchObject({
      linked_vote: 1,
      choices: renamed.choices,
    });
    // Question 1 is a predict now: the link goes (the host picks another vote).
    expect('linked_vote' in followLinkedVote(game([predict('p', 1), back]), 1, back)).toBe(false);
    // A link to itself goes too, and other questions pass as they are.
    expect('linked_vote' in followLinkedVote(game([back]), 0, back)).toBe(false);
    expect(followLinkedVote(game([renamed]), 0, renamed)).toBe(renamed);
  });

  it('the next key counts on from a number, else adds one', () => {
    expect(nextKey('week-3', ['week-1', 'week-3'])).toBe('week-4');
    expect(nextKey('week-3', ['week-3', 'week-4'])).toBe('week-5');
    expect(nextKey('final', ['final'])).toBe('final-2');
  });

  it('a later schedule moves by whole weeks until it opens after now', () => {
    const s = game([]).schedule;
    expect(laterSchedule(s, new Date('2026-11-01T00:00:00Z'))).toEqual({
      open: '2026-12-08T18:00:00Z',
      standby: '2026-12-10T18:00:00Z',
      complete: '2026-12-11T18:00:00Z',
    });
    expect(laterSchedule(s, new Date('2026-12-20T00:00:00Z')).open).toBe('2026-12-22T18:00:00Z');
  });

  it('a later schedule keeps the host’s clock time across a change to daylight-saving time', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      // 11:00 PST on Wednesday 10 March 2027; clocks go forward on Sunday 14 March.
      const s = {
        open: '2027-03-10T19:00:00Z',
        standby: '2027-03-12T19:00:00Z',
        complete: '2027-03-13T19:00:00Z',
      };
      expect(laterSchedule(s, new Date('2027-03-10T20:00:00Z'))).toEqual({
        open: '2027-03-17T18:00:00Z', // 11:00 PDT
        standby: '2027-03-19T18:00:00Z',
        complete: '2027-03-20T18:00:00Z',
      });
      // The hour after clocks go back: 11:00 PDT on 25 October, now 10:30 PST on 1 November. The
      // fewest weeks is one (11:00 PST on 1 November is still ahead), not two.
      const autumn = {
        open: '2026-10-25T18:00:00Z',
        standby: '2026-10-26T18:00:00Z',
        complete: '2026-10-27T18:00:00Z',
      };
      expect(laterSchedule(autumn, new Date('2026-11-01T18:30:00Z')).open).toBe('2026-11-01T19:00:00Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('a duplicate has the same questions, a new key and schedule, its outcomes pending again, none voided', () => {
    const original = game([
      vote('v1'),
      guess('g2', 1),
      { ...predict('p3', 7), voided: true },
      predict('p4', 'crowd'),
    ]);
    const schedule = laterSchedule(original.schedule, new Date('2026-11-01T00:00:00Z'));
    const copy = duplicateGame({ ...original, name: 'Week 1' }, 'week-2', schedule);
    expect(copy.key).toBe('week-2');
    expect(copy.name).toBe('Week 2');
    expect(duplicateGame({ ...original, name: 'Final' }, 'final-2', schedule).name).toBe('Final');
    expect('name' in duplicateGame(original, 'week-2', schedule)).toBe(false);
    expect(copy.schedule).toEqual(schedule);
    expect(copy.questions.map((q) => q.text)).toEqual(['v1', 'g2', 'p3', 'p4']);
    expect(copy.questions[1]).toMatchObject({ linked_vote: 1, choices: [{ text: 'A' }, { text: 'B' }] });
    expect(copy.questions.map((q) => (q.kind === 'predict' ? q.outcome : null))).toEqual([
      null,
      null,
      'pending',
      'crowd',
    ]);
    expect(copy.questions.map((q) => q.voided)).toEqual([false, false, false, false]);
    // Nothing is shared with the original.
    expect(original.questions[2]).toMatchObject({ outcome: 7, voided: true });
    expect(original.questions[0]).toMatchObject({ choices: ['A', 'B'] });
  });

  it('an edited document with choices as objects and a new game still parses', () => {
    const original = game([vote('v1'), guess('g2', 1)]);
    const season = {
      community: { endpoint: 'runners', name: 'Runners', description: '', listed: true, categories: [] },
      series: [{ endpoint: 'weekly', name: 'Weekly', description: '', games: [original] }],
    };
    const next = withGame(withGame(season, 0, 0, editableGame(original)), 0, -1, {
      ...newGame('week-2', new Date('2026-11-01T10:30:00Z')),
      questions: [vote('v')],
    });
    expect(parseSeason(next).problems).toEqual([]);
    expect(next.series[0]!.games.map((g) => g.key)).toEqual(['week-1', 'week-2']);
    expect(next.series[0]!.games[1]!.schedule.open).toBe('2026-11-02T11:00:00Z');
  });
});

describe('season edits: a game that opened while it was edited', () => {
  it('takes back what the opening locked, keeps the rest, and says whether edits went', () => {
    const saved = makeSeasonGame([vote('Race vote')], { name: 'Race' });
    const draft: SeasonGame = {
      ...saved,
      name: 'Race renamed',
      synchronous: true,
      speed_bonus: true,
      subcommunities: ['greater-denver-co'],
      schedule: {
        open: '2026-12-02T18:00:00Z',
        standby: '2026-12-05T18:00:00Z',
        complete: '2026-12-06T18:00:00Z',
      },
      questions: [
        {
          kind: 'vote',
          text: 'Race vote EDITED',
          secs_to_answer: 20,
          voided: false,
          choices: ['A', 'Y changed'],
        },
      ],
    };
    const { game: back, changed } = withOpenedParts(draft, saved);
    expect(changed).toBe(true);
    expect(back).toEqual({
      ...saved,
      name: 'Race renamed',
      schedule: { ...draft.schedule, open: saved.schedule.open },
    });
    // Only allowed edits: nothing goes, and the draft is the same.
    const allowed = { ...saved, name: 'Race renamed' };
    expect(withOpenedParts(allowed, saved)).toEqual({ game: allowed, changed: false });
    // As the editor holds games (choices as objects): an untouched draft has nothing taken back.
    const held = editableGame(saved);
    expect(withOpenedParts(held, editableGame(saved)).changed).toBe(false);
  });
});

describe('settings as a save sends them', () => {
  it('says an empty description and no image, which the export leaves out, in words the import reads', () => {
    const exported: { endpoint: string; name: string; description?: string; image?: string | null } = {
      endpoint: 'club',
      name: 'Club',
    };
    // Left out, the import would keep the stored ones: a removed image would stay.
    expect(settingsToSave(exported)).toEqual({ ...exported, description: '', image: null });
    const full = { ...exported, description: 'About', image: 'a.png' };
    expect(settingsToSave(full)).toEqual(full);
  });
});
