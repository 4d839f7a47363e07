import { type CommunityRow, LEADERBOARD_PAGE_SIZE, type PlayerRow } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import {
  isCommunityRow,
  isPlayerRow,
  type LeaderboardPage,
  nextLeaderboardPage,
  rankedRows,
  rowsOf,
} from './leaderboard-pages';

const player = (r: number, s = 100 - r): PlayerRow => ({
  img: '_.jpg',
  hths: null,
  pvt: false,
  s,
  r,
  p: 50,
  cr: null,
  c: null,
  pos: r,
});
const community = (r: number): CommunityRow => ({ name: `Club ${r}`, img: 'c.jpg', a: 10 - r, r, c: 3 });

const pageOf = (n: number, from = 1) =>
  Object.fromEntries(Array.from({ length: n }, (_, k) => [`player_${from + k}`, player(from + k)]));

describe('leaderboard paging', () => {
  it('asks for the next page after a full one and stops after a short or empty one', () => {
    expect(nextLeaderboardPage(pageOf(LEADERBOARD_PAGE_SIZE), 1)).toBe(2);
    expect(nextLeaderboardPage(pageOf(LEADERBOARD_PAGE_SIZE), 7)).toBe(8);
    expect(nextLeaderboardPage(pageOf(LEADERBOARD_PAGE_SIZE - 1), 1)).toBeUndefined();
    expect(nextLeaderboardPage({}, 3)).toBeUndefined();
  });

  it('merges pages into rows by rank, ties by key, whatever the answer’s key order', () => {
    const first = { zed: player(2), amy: player(1), bob: player(2) };
    const second = { cat: player(4), dan: player(3) };
    expect(rankedRows([first, second]).map((x) => x.key)).toEqual(['amy', 'bob', 'zed', 'dan', 'cat']);
  });

  it('shows a row once when it moved to the next page between two loads', () => {
    const rows = rankedRows([
      { amy: player(1), bob: player(2) },
      { bob: player(3), cat: player(4) },
    ]);
    expect(rows.map((x) => [x.key, x.row.r])).toEqual([
      ['amy', 1],
      ['bob', 3],
      ['cat', 4],
    ]);
  });

  it('has no rows before the first page', () => {
    expect(rankedRows(undefined)).toEqual([]);
  });

  it('keeps the rows of the board’s own kind', () => {
    const page: LeaderboardPage = { amy: player(1), 'book-club': community(1) };
    expect(rowsOf(page, isPlayerRow)).toEqual({ amy: player(1) });
    expect(rowsOf(page, isCommunityRow)).toEqual({ 'book-club': community(1) });
  });
});
