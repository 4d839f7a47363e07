import { describe, expect, it } from 'vitest';
import { inDocumentOrder, parseSeason, type SeasonInput, seasonJsonSchema } from './season';

const at = (iso: string) => `2030-05-0${iso}`;
const valid = (): SeasonInput => ({
  community: { endpoint: 'riverside-runners', name: 'The Riverside Runners', categories: ['Running'] },
  category_groups: { Sports: ['Running'] },
  series: [
    {
      endpoint: 'weekly-picks',
      name: 'Weekly Picks',
      games: [
        {
          key: 'week-1',
          schedule: { open: at('1T18:00:00Z'), standby: at('3T18:00:00Z'), complete: at('4T18:00:00Z') },
          questions: [
            { kind: 'vote', text: 'Best trail?', choices: ['River loop', 'Hill climb', { text: 'Park' }] },
            {
              kind: 'guess',
              text: 'Most picked?',
              choices: ['River loop', 'Hill climb', 'Park'],
              linked_vote: 1,
            },
            {
              kind: 'predict',
              text: 'Finishers?',
              slider: { min: 0, max: 300, step: 1, unit: 'runners' },
              outcome: 'pending',
            },
          ],
        },
      ],
    },
  ],
});

/** The paths of the problems of a document changed by `edit`. */
function pathsOf(edit: (doc: SeasonInput & Record<string, unknown>) => void): string[] {
  const doc = valid() as SeasonInput & Record<string, unknown>;
  edit(doc);
  return parseSeason(JSON.parse(JSON.stringify(doc))).problems.map((p) => p.path);
}

// Loosely typed access to the valid document, for edits the type would forbid.
// biome-ignore lint/suspicious/noExplicitAny: the tests write what the schema must refuse.
type Loose = any;
const game = (doc: Loose) => doc.series[0].games[0];
const q = (doc: Loose, i: number) => game(doc).questions[i];

describe('season documents', () => {
  it('accepts the valid document and fills in the defaults', () => {
    const { season, problems } = parseSeason(valid());
    expect(problems).toEqual([]);
    // A community's settings left out stay as stored (the plan fills them in), so no default here.
    expect(season!.community.listed).toBeUndefined();
    expect(season!.series[0]!.games[0]!.questions[0]!.secs_to_answer).toBe(20);
    expect(season!.series[0]!.games[0]!.synchronous).toBe(false);
  });

  it.each([
    [
      'an endpoint outside the rule',
      (d: Loose) => (d.community.endpoint = 'No Spaces!'),
      'community.endpoint',
    ],
    ['a short endpoint', (d: Loose) => (d.series[0].endpoint = 'ab'), 'series.0.endpoint'],
    ['an unknown field', (d: Loose) => (d.community.colour = 'red'), 'community.colour'],
    ['a missing name', (d: Loose) => delete d.community.name, 'community.name'],
    ['an unknown kind', (d: Loose) => (q(d, 0).kind = 'poll'), 'series.0.games.0.questions.0.kind'],
    [
      'a slider upside down',
      (d: Loose) => (q(d, 2).slider.max = -1),
      'series.0.games.0.questions.2.slider.max',
    ],
    ['a step of 0', (d: Loose) => (q(d, 2).slider.step = 0), 'series.0.games.0.questions.2.slider.step'],
    [
      '4 seconds to answer',
      (d: Loose) => (q(d, 0).secs_to_answer = 4),
      'series.0.games.0.questions.0.secs_to_answer',
    ],
    [
      '121 seconds to answer',
      (d: Loose) => (q(d, 0).secs_to_answer = 121),
      'series.0.games.0.questions.0.secs_to_answer',
    ],
    ['one choice', (d: Loose) => (q(d, 0).choices = ['Only']), 'series.0.games.0.questions.0.choices'],
    [
      '13 choices',
      (d: Loose) => (q(d, 0).choices = [...'abcdefghijklm']),
      'series.0.games.0.questions.0.choices',
    ],
    [
      'a choice of the wrong shape',
      (d: Loose) => (q(d, 0).choices[2] = { txt: 'Park' }),
      'series.0.games.0.questions.0.choices.2',
    ],
    ['an outcome word', (d: Loose) => (q(d, 2).outcome = 'later'), 'series.0.games.0.questions.2.outcome'],
    ['no outcome', (d: Loose) => delete q(d, 2).outcome, 'series.0.games.0.questions.2.outcome'],
    [
      'a slider on a vote',
      (d: Loose) => (q(d, 0).slider = { min: 0, max: 1, step: 1 }),
      'series.0.games.0.questions.0.slider',
    ],
    ['a linked vote 0', (d: Loose) => (q(d, 1).linked_vote = 0), 'series.0.games.0.questions.1.linked_vote'],
    [
      'a time without zone',
      (d: Loose) => (game(d).schedule.open = '2030-05-01 18:00'),
      'series.0.games.0.schedule.open',
    ],
    ['a bad game key', (d: Loose) => (game(d).key = 'Week 1'), 'series.0.games.0.key'],
    ['a NUL in a text', (d: Loose) => (q(d, 0).text = 'a\u0000b'), 'series.0.games.0.questions.0.text'],
    ['no questions', (d: Loose) => (game(d).questions = []), 'series.0.games.0.questions'],
    ['a series that is no list', (d: Loose) => (d.series = { a: 1 }), 'series'],
  ])('refuses %s at its path', (_name, edit, path) => {
    expect(pathsOf(edit)).toEqual([path]);
  });

  it.each([
    ['two series with one endpoint', (d: Loose) => d.series.push({ ...d.series[0] }), ['series.1.endpoint']],
    [
      'two games with one key',
      (d: Loose) => game(d) && d.series[0].games.push(shift(game(d), 1)),
      ['series.0.games.1.key'],
    ],
    [
      'two games with one standby',
      (d: Loose) => d.series[0].games.push({ ...game(d), key: 'week-2' }),
      ['series.0.games.1.schedule.standby'],
    ],
    [
      'a schedule out of order',
      (d: Loose) => (game(d).schedule.complete = at('2T00:00:00Z')),
      ['series.0.games.0.schedule.complete'],
    ],
    [
      'a guess linked to itself',
      (d: Loose) => (q(d, 1).linked_vote = 2),
      ['series.0.games.0.questions.1.linked_vote'],
    ],
    [
      'a guess linked past the end',
      (d: Loose) => (q(d, 1).linked_vote = 9),
      ['series.0.games.0.questions.1.linked_vote'],
    ],
    [
      'a guess whose choices are not its vote’s',
      (d: Loose) => (q(d, 1).choices = ['Park', 'River loop', 'Hill climb']),
      ['series.0.games.0.questions.1.choices'],
    ],
    [
      'an outcome off the slider',
      (d: Loose) => (q(d, 2).outcome = 301),
      ['series.0.games.0.questions.2.outcome'],
    ],
    [
      'a choice twice (and so a guess no longer offering its vote’s choices)',
      (d: Loose) => (q(d, 0).choices[1] = 'River loop'),
      ['series.0.games.0.questions.0.choices.1', 'series.0.games.0.questions.1.choices'],
    ],
    [
      'a category in two groups',
      (d: Loose) => (d.category_groups.Outdoors = ['Running']),
      ['category_groups.Outdoors.0'],
    ],
    [
      'a subcommunity twice',
      (d: Loose) => (game(d).subcommunities = ['north', 'north']),
      ['series.0.games.0.subcommunities.1'],
    ],
  ])('refuses %s', (_name, edit, paths) => {
    expect(pathsOf(edit)).toEqual(paths);
  });

  it('refuses names, texts and choices of spaces alone, which show as nothing', () => {
    const doc = valid();
    doc.community.name = '   ';
    const series = doc.series![0]!;
    series.name = ' ';
    const game = series.games![0]!;
    game.name = '\u3000';
    const [vote, guess, predict] = game.questions as unknown as [
      { text: string; choices: unknown[] },
      { text: string },
      { slider: { unit: string } },
    ];
    vote.text = '  ';
    vote.choices = ['River loop', '  ', '   '];
    guess.text = 'Most picked?';
    predict.slider.unit = '  ';
    const { problems } = parseSeason(doc);
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['community.name', 'The community name is only spaces'],
      ['series.0.name', 'The series name is only spaces'],
      ['series.0.games.0.questions.0.text', 'The question text is only spaces'],
      ['series.0.games.0.questions.0.choices.1', 'A choice is only spaces'],
      ['series.0.games.0.questions.0.choices.2', 'A choice is only spaces'],
      ['series.0.games.0.questions.2.slider.unit', 'The unit is only spaces: leave it empty or name one'],
      // Last: the name is added after the game's other fields, and problems come in document order.
      ['series.0.games.0.name', 'The game name is only spaces'],
    ]);
    // Spaces around words are words all the same.
    const fine = valid();
    fine.community.name = ' Riverside Runners ';
    expect(parseSeason(fine).problems).toEqual([]);
  });

  it('says a schedule out of order in the words of the kind of game', () => {
    const messages = (synchronous: boolean) => {
      const doc = valid() as Loose;
      Object.assign(game(doc), { synchronous, speed_bonus: false });
      game(doc).schedule = {
        open: at('3T18:00:00Z'),
        standby: at('2T18:00:00Z'),
        complete: at('1T18:00:00Z'),
      };
      return parseSeason(doc).problems.map((p) => [p.path, p.message]);
    };
    expect(messages(false)).toEqual([
      ['series.0.games.0.schedule.standby', 'Submissions must not close before they open'],
      ['series.0.games.0.schedule.complete', 'Results must not come before submissions close'],
    ]);
    expect(messages(true)).toEqual([
      ['series.0.games.0.schedule.standby', 'The game must not start before its lobby opens'],
      ['series.0.games.0.schedule.complete', 'The game must not end before it starts'],
    ]);
  });

  it.each([
    ['the year 0', '0000-01-01T00:00:00Z', 'A time from the year 2000 to 9999'],
    ['the year 50 (read back as 1950)', '0050-01-01T00:00:00Z', 'A time from the year 2000 to 9999'],
    [
      'a time that is the year 10000 in UTC',
      '9999-12-31T23:59:59-01:00',
      'A time from the year 2000 to 9999',
    ],
    ['a zone 23:59 from UTC', '2030-01-01T00:00:00-23:59', 'A zone at most 14 hours from UTC, like +02:00'],
  ])('refuses %s in a schedule, with a sentence', (_name, time, message) => {
    const doc = valid() as Loose;
    game(doc).schedule.open = time;
    expect(parseSeason(doc).problems.map((p) => [p.path, p.message])).toEqual([
      ['series.0.games.0.schedule.open', message],
    ]);
  });

  it('takes the widest real zones and the edges of the years it allows', () => {
    const doc = valid() as Loose;
    game(doc).schedule = {
      open: '2000-01-01T00:00:00Z',
      standby: '2000-01-01T00:00:00-14:00',
      complete: '9999-12-31T23:59:59Z',
    };
    expect(parseSeason(doc).problems).toEqual([]);
  });

  it('reports every problem of a document at once, including rules of the games that parse', () => {
    const paths = pathsOf((d: Loose) => {
      d.community.endpoint = 'X';
      d.community.extra = true;
      q(d, 2).slider.max = -5;
      d.series.push({
        endpoint: 'second',
        name: 'Second',
        games: [{ ...shift(game(valid()), 1), key: 'w' }],
      });
      d.series[1].games[0].questions[1].linked_vote = 3;
    });
    expect(paths).toEqual([
      'community.endpoint',
      'community.extra',
      'series.0.games.0.questions.2.slider.max',
      'series.1.games.0.questions.1.linked_vote',
    ]);
  });

  it('checks the rules of the document on its parts that parse, however much else does not', () => {
    const paths = pathsOf((d: Loose) => {
      d.community.endpoint = 'X';
      d.category_groups.Outdoors = ['Running'];
      d.series[0].games.push({ ...shift(game(valid()), 1), key: 'week-1' });
      d.series[0].games.push({ key: 'week-1', questions: 'none' });
      d.series.push({ endpoint: 'weekly-picks', name: 'Weekly Picks again' });
      // Not a second series of that endpoint: its own fields do not parse.
      d.series.push({ endpoint: 'weekly-picks', name: '', games: [] });
    });
    expect(paths).toEqual([
      'community.endpoint',
      'category_groups.Outdoors.0',
      'series.0.games.1.key',
      // Missing, where the game's mapping starts.
      'series.0.games.2.schedule',
      // A game that does not parse is read in parts: its key is the first game's again.
      'series.0.games.2.key',
      'series.0.games.2.questions',
      'series.1.endpoint',
      'series.2.name',
    ]);
  });

  it("checks a game that does not parse within itself too: every problem of a host's file in one answer", () => {
    const d = valid() as Loose;
    const g = game(d);
    q(d, 2).slider.max = -5; // the shape: the game does not parse whole
    g.schedule.complete = g.schedule.open;
    q(d, 0).choices = ['A', 'A', 'B'];
    q(d, 1).linked_vote = 9;
    d.series[0].games.push({ ...shift(game(valid()), 1), key: g.key });
    const problems = parseSeason(JSON.parse(JSON.stringify(d))).problems.map((p) => [p.path, p.message]);
    expect(problems).toEqual([
      ['series.0.games.0.schedule.complete', 'Results must not come before submissions close'],
      ['series.0.games.0.questions.0.choices.1', 'Choice A is listed twice'],
      ['series.0.games.0.questions.1.linked_vote', 'This game has no question 9'],
      ['series.0.games.0.questions.2.slider.max', expect.any(String)],
      ['series.0.games.1.key', 'Another game of this series has the key week-1'],
    ]);
  });

  it('lists the problems in the order of the document, a missing field where its mapping starts', () => {
    const problems = parseSeason({
      series: [{ name: 'No endpoint', games: [{ key: 'Bad key', schedule: {} }] }],
      community: { endpoint: 'ok-club' },
    }).problems.map((p) => p.path);
    expect(problems).toEqual([
      'series.0.endpoint',
      'series.0.games.0.questions',
      'series.0.games.0.key',
      'series.0.games.0.schedule.open',
      'series.0.games.0.schedule.standby',
      'series.0.games.0.schedule.complete',
      'community.name',
    ]);
  });

  it('orders problems by the keys as written, dotted ones too, and lists each once', () => {
    const doc = { category_groups: { 'U.S. sports': ['a', ''], Other: [''] }, series: [{}, {}] };
    const problem = (path: string, message = 'x') => ({ path, message });
    const ordered = inDocumentOrder(
      [
        problem('series.1'),
        problem('category_groups.Other.0'),
        problem('series.0.name', 'first'),
        problem('category_groups.U.S. sports.1'),
        problem('series.0.name', 'second'),
        problem('series.1'),
        problem(''),
      ],
      doc,
    );
    expect(ordered.map((p) => `${p.path} ${p.message}`)).toEqual([
      ' x',
      'category_groups.U.S. sports.1 x',
      'category_groups.Other.0 x',
      'series.0.name first',
      'series.0.name second',
      'series.1 x',
    ]);
  });

  it('reads the parts of a document that parse on their own, with their places in it', () => {
    const doc = valid() as Loose;
    doc.community.name = '';
    doc.category_groups.Broken = [''];
    doc.series.push('not a series', { endpoint: 'second', name: 'Second', games: [{ questions: [] }] });
    q(doc, 0).choices = 'one';
    const { season, parts } = parseSeason(doc);
    expect(season).toBeUndefined();
    expect(parts.community).toBeUndefined();
    expect(parts.groups).toEqual([['Sports', ['Running']]]);
    expect(parts.allGroups).toBe(false);
    expect(parts.series.map((s) => [s.index, s.fields?.endpoint, s.games.length, s.keys])).toEqual([
      [0, 'weekly-picks', 0, ['week-1']],
      [1, undefined, 0, undefined],
      [2, 'second', 0, undefined],
    ]);
  });

  it('refuses text-direction controls in every text a player sees, and keeps right-to-left text', () => {
    const problems = (edit: (d: Loose) => void) => {
      const doc = valid() as Loose;
      edit(doc);
      return parseSeason(doc).problems.map((p) => [p.path, p.message]);
    };
    for (const c of '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069') {
      expect(problems((d) => (game(d).name = `${c}evil`))).toEqual([
        ['series.0.games.0.name', 'The game name holds an invisible text-direction character'],
      ]);
    }
    expect(
      problems((d) => {
        d.community.name = 'Riverside \u202eRunners';
        d.community.description = 'Weekly\n\u2067picks\u2069';
        q(d, 0).choices[2] = { text: 'Park\u202d' };
        q(d, 2).slider.unit = '\u202brunners';
      }),
    ).toEqual([
      ['community.name', 'The community name holds an invisible text-direction character'],
      ['community.description', 'The description holds an invisible text-direction character'],
      ['series.0.games.0.questions.0.choices.2.text', 'A choice holds an invisible text-direction character'],
      ['series.0.games.0.questions.2.slider.unit', 'The unit holds an invisible text-direction character'],
    ]);
    const rightToLeft = problems((d) => {
      d.community.name = 'רצי הנהר';
      game(d).name = 'الأسبوع الأول\u200f!';
      q(d, 0).text = 'Best trail? \u200eשביל';
    });
    expect(rightToLeft).toEqual([]);
  });

  it('generates a JSON Schema that names the format’s rules', () => {
    const schema = seasonJsonSchema() as Loose;
    const question = schema.properties.series.items.properties.games.items.properties.questions.items;
    expect(question.oneOf ?? question.anyOf).toHaveLength(3);
    expect(schema.properties.community.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).toContain('"maximum":120');
  });
});

function shift(g: Loose, days: number) {
  const move = (iso: string) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();
  return {
    ...g,
    schedule: {
      open: move(g.schedule.open),
      standby: move(g.schedule.standby),
      complete: move(g.schedule.complete),
    },
  };
}
