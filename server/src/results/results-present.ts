import type { CommunityRank, CommunityRow, PlayerRow, QuestionItem, QuestionStats } from '@hunch/contract';
import {
  competitionRanks,
  guessTruth,
  headToHead,
  numericBuckets,
  percent,
  percentile,
  withheld,
} from '@hunch/rules';
import { type QuestionRow, toQuestionItem } from '../core/question-queries';
import { userImageName } from '../platform/images';
import type { BoardRow, CachedCounts, CommunityRankRow, CommunityTotal } from './results-queries';

/** Averages are shown with one decimal (DESIGN §2 leaves the format to us; percentiles stay raw). */
const round1 = (x: number): number => Math.round(x * 10) / 10;

/**
 * Player rows keyed by username, inserted in leaderboard order. Object.fromEntries defines own
 * properties, so a player called `__proto__` is a row like any other. JSON objects keep insertion
 * order except for integer-like keys (a digits-only username such as '12345678' is listed first by
 * every JavaScript engine), so clients order rows by `r`, not by key order.
 */
export function presentPlayerRows(
  rows: readonly BoardRow[],
  viewerId: number,
  scores: ReadonlyMap<number, ReadonlyMap<string, number>>,
): Record<string, PlayerRow> {
  const mine = scores.get(viewerId) ?? new Map<string, number>();
  return Object.fromEntries(
    rows.map((row): [string, PlayerRow] => {
      const own = row.user_id === viewerId;
      // A private player's row shows others their name, picture and standing on this board, not
      // which community they played for, nor how they fared against the viewer in other games
      // (DESIGN §2: others see the username and image only).
      const withheld = row.is_private && !own;
      return [
        row.username,
        {
          img: userImageName(row.user_id, row.profile_img),
          hths: own || withheld ? null : headToHead(mine, scores.get(row.user_id) ?? new Map()),
          pvt: row.is_private,
          s: row.score,
          r: row.rank,
          p: row.percentile,
          // The rank within the community counts private teammates too: on others' rows its gaps
          // would show where a private player of that community stands (decision 038).
          cr: own ? row.community_rank : null,
          c: withheld ? null : row.sub,
          pos: row.position,
        },
      ];
    }),
  );
}

/**
 * Community rows keyed by endpoint, ordered by rank then endpoint as rules communityStandings
 * orders them: the same ranking (competition ranks of the unrounded means) over sums the database
 * has already added up.
 */
export function presentCommunityRows(totals: readonly CommunityTotal[]): Record<string, CommunityRow> {
  const means = totals.map((t) => t.total / t.c);
  const ranks = competitionRanks(means);
  const rows = totals.map((t, k) => ({ t, a: means[k]!, r: ranks[k]! }));
  rows.sort((x, y) => x.r - y.r || (x.t.endpoint < y.t.endpoint ? -1 : x.t.endpoint > y.t.endpoint ? 1 : 0));
  return Object.fromEntries(
    rows.map(({ t, a, r }): [string, CommunityRow] => [
      t.endpoint,
      { name: t.name, img: t.image, a: round1(a), r, c: t.c },
    ]),
  );
}

/** Counts per choice index (length = number of choices) from a question's cached slots. */
function choiceCounts(q: QuestionRow, slots: ReadonlyMap<number, number> | undefined): number[] {
  return q.choices.map((c) => slots?.get(c.i) ?? 0);
}

/**
 * The truths (DESIGN §2), always from everyone's answers: a vote's favourite(s); a guess's top
 * choice(s) of its linked vote if it has one, else of the guesses; a predict's outcome: the host's,
 * the crowd median, or none for a pending one voided before it was entered.
 */
function truths(
  q: QuestionRow,
  byIndex: ReadonlyMap<number, QuestionRow>,
  all: CachedCounts['all'],
  medians: ReadonlyMap<number, number>,
): Pick<QuestionStats, 'correct_choices' | 'correct_numbers'> {
  if (q.kind === 'predict') {
    // A pending outcome never entered (the question was voided instead) has no truth: the median
    // would be an answer the host never gave.
    if (q.outcome_kind === 'pending' && q.outcome === null)
      return { correct_choices: [], correct_numbers: [] };
    const truth = q.outcome ?? medians.get(q.i);
    return { correct_choices: [], correct_numbers: truth === undefined ? [] : [truth] };
  }
  const linked = q.kind === 'guess' && q.linked_vote_i !== null ? byIndex.get(q.linked_vote_i) : undefined;
  const source = linked ?? q;
  const top = guessTruth(choiceCounts(source, all.get(source.i)));
  // A guess's choices mirror its vote's by index; fall back to the vote's text if it has more.
  const texts = top.flatMap((k) => {
    const text = q.choices[k]?.text ?? source.choices[k]?.text;
    return text === undefined ? [] : [text];
  });
  return { correct_choices: texts, correct_numbers: [] };
}

/**
 * Statistics per question for everyone, or for one group when `filtered`. A group the rules
 * withhold (withheldGroups: too small, or able to single out a small group by subtraction, decision
 * 019) shows zeros and withheld: true in every question; a group answering a question with 1 to 4
 * players (rules withheld) too, should the cache ever hold one.
 */
export function presentQuestionStats(
  questions: readonly QuestionRow[],
  counts: CachedCounts,
  filtered: boolean,
  medians: ReadonlyMap<number, number>,
): { questions: QuestionItem[]; stats: QuestionStats[] } {
  const byIndex = new Map(questions.map((q) => [q.i, q]));
  const source = filtered ? counts.group : counts.all;
  const stats = questions.map((q): QuestionStats => {
    const slots = source.get(q.i);
    // Empty buckets give the bounds; the counts come from the cache (slot k = bucket k).
    const bounds = q.kind === 'predict' ? numericBuckets([], sliderOf(q)) : [];
    const raw = q.kind === 'predict' ? bounds.map((_, k) => slots?.get(k) ?? 0) : choiceCounts(q, slots);
    const total = raw.reduce((sum, c) => sum + c, 0);
    const hide = filtered && (counts.groupWithheld || withheld(total));
    const cts = hide ? raw.map(() => 0) : raw;
    const n = hide ? 0 : total;
    const base = { ...truths(q, byIndex, counts.all, medians), n, withheld: hide };
    if (q.kind === 'predict') {
      const ranges = bounds.map((b, k) => ({
        min: b.min,
        max: b.max,
        ct: cts[k]!,
        per: percent(cts[k]!, n),
      }));
      return { choices: {}, ranges, ...base };
    }
    // Two choices with the same text share one entry rather than one hiding the other.
    const byText = new Map<string, number>();
    for (const [k, c] of q.choices.entries()) byText.set(c.text, (byText.get(c.text) ?? 0) + cts[k]!);
    const choices = Object.fromEntries([...byText].map(([text, ct]) => [text, { ct, per: percent(ct, n) }]));
    return { choices, ranges: [], ...base };
  });
  return { questions: questions.map(toQuestionItem), stats };
}

function sliderOf(q: QuestionRow): { min: number; max: number } {
  return { min: q.slider_min ?? 0, max: q.slider_max ?? 0 };
}

/** A player with no completed game there has no rank: zeros and nulls rather than a 404. */
export function presentCommunityRank(row: CommunityRankRow | undefined): CommunityRank {
  if (!row || row.games === 0) return { s: 0, a: 0, r: null, p: null, games: 0, players: 0 };
  return {
    s: row.s,
    a: round1(row.s / row.games),
    r: row.higher + 1,
    p: percentile(row.lower, row.players),
    games: row.games,
    players: row.players,
  };
}
