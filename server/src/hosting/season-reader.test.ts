import { describe, expect, it } from 'vitest';
import { seasonDoc } from '../test/hosting-factories';
import { readSeason } from './season-reader';

/** A season of `games` games in one series, each with a field the format does not know. */
function bigSeason(games: number) {
  const doc = seasonDoc(new Date(Date.now() + 10 * 86_400_000));
  const series = doc.series![0]!;
  const game = series.games![0]!;
  return {
    ...doc,
    series: Array.from({ length: Math.ceil(games / 500) }, (_, s) => ({
      ...series,
      endpoint: `big-${s}`,
      games: Array.from({ length: 500 }, (_, g) => ({ ...game, key: `g${g}`, bogus: 1 })),
    })),
  };
}

describe('the season reader', () => {
  it('reads in a thread of its own: the main thread turns while a big file is read', async () => {
    const text = JSON.stringify(bigSeason(4_000));
    let turns = 0;
    let reading = true;
    const turn = () => {
      turns++;
      if (reading) setImmediate(turn);
    };
    setImmediate(turn);
    const read = await readSeason(text, 'json');
    reading = false;
    if (!('parts' in read)) throw new Error('the file should read');
    try {
      // Read on this thread, the whole parse would run before the first turn.
      expect(turns).toBeGreaterThan(10);
      const unknown = read.problems.filter((p) => p.message === 'Unknown field bogus');
      expect(unknown).toHaveLength(4_000);
      expect(unknown[0]?.path).toBe('series.0.games.0.bogus');
      expect(read.parts.series).toHaveLength(8);
    } finally {
      read.release();
    }
  });

  it('places problems at their line and column, in YAML and JSON, until released', async () => {
    const doc = bigSeason(500);
    const yaml = [
      'community:',
      `  endpoint: ${doc.community.endpoint}`,
      '  name: A name',
      'nonsense: 1',
      '',
    ].join('\n');
    const read = await readSeason(yaml, 'yaml');
    if (!('parts' in read)) throw new Error('the file should read');
    const problems = [
      { path: 'nonsense', message: 'Unknown field nonsense' },
      { path: 'community.name', message: 'A problem found later' },
      { path: 'series.3.games.1', message: 'Its nearest place is the top' },
      { path: 'community', message: 'Placed already', line: 9, column: 9 },
    ];
    expect(await read.placed(problems)).toEqual([
      { ...problems[0], line: 4, column: 11 },
      { ...problems[1], line: 3, column: 9 },
      { ...problems[2], line: 1, column: 1 },
      problems[3],
    ]);
    read.release();
    // Once released, nothing is left to place them in: they come back as they are.
    expect(await read.placed(problems.slice(0, 1))).toEqual(problems.slice(0, 1));

    const text = JSON.stringify(doc, null, 2);
    const json = await readSeason(text, 'json');
    if (!('parts' in json)) throw new Error('the file should read');
    const [first] = await json.placed([{ path: 'series.0.games.0.bogus', message: 'x' }]);
    // The first game's value of bogus: where its line has it.
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"bogus": 1'));
    expect(first).toMatchObject({ line: line + 1, column: lines[line]!.indexOf('1') + 1 });
    json.release();
  });

  it('answers syntax errors with their place, and goes on reading the next file', async () => {
    const broken = await readSeason('{"community": ', 'json');
    expect('parts' in broken).toBe(false);
    expect(broken.problems[0]?.message).toMatch(/^JSON syntax error at line 1, column 15/);
    const next = await readSeason('community: {endpoint: fine-club, name: Fine club}\n', 'yaml');
    expect('parts' in next && next.parts.community).toBeTruthy();
    if ('parts' in next) next.release();
  });
});
