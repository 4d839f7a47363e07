import type { SeasonGameInput, SeasonInput, SeasonQuestionInput } from '@hunch/contract';
import { emojiPicture, type PictureStyle } from '../platform/emoji-picture';
import { imageSize } from '../platform/images';
import { demoCommunities, LIVE_SERIES, questionSets } from './demo-content';
import { communityEmoji, gameEmoji, questionEmoji, seriesEmoji, themeHue } from './demo-pictures';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type DemoCommunity = (typeof demoCommunities)[number];
type Window = 'recentOld' | 'recent' | 'open' | 'upcoming';

/** A demo game: where it sits in its season, and what share of the community's players answered it. */
export interface DemoGame {
  series: string;
  key: string;
  name?: string;
  window: Window;
  theme: string;
  /** Endpoints of the communities that play it as teams. */
  teams: string[];
  /** The share of the community's demo players who answered; null: nobody yet (upcoming). */
  share: number | null;
}

/** One demo community as a season document, with the pictures it names (a .zip's other files). */
export interface DemoSeason {
  endpoint: string;
  season: SeasonInput;
  files: Map<string, Buffer>;
  games: DemoGame[];
}

const themeFor: Record<string, string> = {
  'the-movie-buffs': 'movies',
  'binge-watchers': 'movies',
  'the-book-club': 'books',
  'chart-toppers': 'music',
  'hoops-nation': 'sports',
  'gridiron-guessers': 'sports',
  'pitch-perfect-fc': 'sports',
  'lab-coats': 'science',
  'weather-watchers': 'science',
};

const CLASH_TEAMS = ['the-movie-buffs', 'the-book-club', 'chart-toppers', 'binge-watchers'];

/** Game windows relative to now: recent ones (complete, to be scored), an open one, upcoming ones. */
function windows(now: number): Record<Window, { open: Date; standby: Date; complete: Date }> {
  return {
    recentOld: {
      open: new Date(now - 8 * DAY),
      standby: new Date(now - 6 * DAY),
      complete: new Date(now - 6 * DAY + HOUR),
    },
    recent: {
      open: new Date(now - 3 * DAY),
      standby: new Date(now - 2 * DAY),
      complete: new Date(now - 2 * DAY + HOUR),
    },
    open: {
      open: new Date(now - 6 * HOUR),
      standby: new Date(now + 2 * DAY),
      complete: new Date(now + 2 * DAY + HOUR),
    },
    upcoming: {
      open: new Date(now + DAY),
      standby: new Date(now + 3 * DAY),
      complete: new Date(now + 3 * DAY + HOUR),
    },
  };
}

const shortName = (c: DemoCommunity) => c.name.replace(/^The /, '');

interface DemoSeries {
  endpoint: string;
  name: string;
  description: string;
  games: Omit<DemoGame, 'series'>[];
}

/** Hunch HQ holds the Daily Hunch, the live series and the Clash; every other community a weekly series. */
function demoSeries(c: DemoCommunity): DemoSeries[] {
  if (c.endpoint === LIVE_SERIES.community) {
    const daily = (n: number, window: Window, share: number | null) => ({
      key: `daily-${n}`,
      name: `Daily Hunch #${n}`,
      window,
      theme: 'general',
      teams: [],
      share,
    });
    return [
      {
        endpoint: 'daily-hunch',
        name: 'Daily Hunch',
        description: 'Five questions a day: vote, guess the crowd, predict the number.',
        games: [
          daily(41, 'recentOld', 0.9),
          daily(42, 'recent', 0.9),
          daily(43, 'open', 0.3),
          daily(44, 'upcoming', null),
        ],
      },
      {
        // Its games come from the live demo (live-demo.ts), a few minutes apart.
        endpoint: LIVE_SERIES.endpoint,
        name: LIVE_SERIES.name,
        description: 'Live games every few minutes: join the lobby, then answer together against the clock.',
        games: [],
      },
      {
        endpoint: 'community-clash',
        name: 'Community Clash',
        description: 'Represent your community: the best average score wins.',
        games: [
          {
            key: 'screens-vs-pages',
            name: 'Clash: Screens vs Pages',
            window: 'recent',
            theme: 'movies',
            teams: CLASH_TEAMS,
            share: 0.9,
          },
          {
            key: 'sound-vs-story',
            name: 'Clash: Sound vs Story',
            window: 'open',
            theme: 'music',
            teams: CLASH_TEAMS,
            share: 0.3,
          },
        ],
      },
    ];
  }
  const theme = themeFor[c.endpoint] ?? 'general';
  return [
    {
      endpoint: 'weekly',
      name: `${shortName(c)} Weekly`,
      description: c.description,
      games: [
        { key: 'week-1', window: 'recent', theme, teams: [], share: 0.85 },
        { key: 'week-2', window: 'open', theme, teams: [], share: 0.3 },
        { key: 'week-3', window: 'upcoming', theme, teams: [], share: null },
      ],
    },
  ];
}

/** The question set of a theme as the demo's games ask it, each question with its picture. */
function questionsOf(theme: string): SeasonQuestionInput[] {
  const set = questionSets.find((s) => s.theme === theme) ?? questionSets[0]!;
  return set.questions.map((q, i) => ({ ...q, image: questionImage(set.theme, i) }));
}

const communityImage = (endpoint: string) => `images/${endpoint}.png`;
const seriesImage = (community: string, series: string) => `images/${community}-${series}.png`;
const gameImage = (community: string, series: string, key: string) =>
  `images/${community}-${series}-${key}.png`;
const questionImage = (theme: string, i: number) => `images/question-${theme}-${i + 1}.png`;

/** A picture of the demo: its emoji in demo-pictures.ts, drawn in the given colours. */
function picture(emoji: string | undefined, hue: number, style: PictureStyle, key: string): Promise<Buffer> {
  if (!emoji) throw new Error(`demo-pictures.ts has no picture for the ${style} ${key}`);
  const kind = style === 'community' ? 'communities' : style === 'question' ? 'questions' : 'games';
  return emojiPicture({ emoji, hue, style, ...imageSize(kind) });
}

/**
 * The demo content as season documents, one per demo community, scheduled around `now`, each with
 * its generated pictures: what the seed imports. Every game's uuid is assigned by the import.
 */
export async function demoSeasons(now: Date): Promise<DemoSeason[]> {
  const w = windows(now.getTime());
  // The pictures are drawn side by side (sharp works on threads of its own), each once.
  const questionPictures = new Map(
    await Promise.all(
      questionSets.flatMap((set) =>
        set.questions.map(async (_q, i) => {
          const name = questionImage(set.theme, i);
          const hue = themeHue[set.theme] ?? 210;
          return [name, await picture(questionEmoji[set.theme]?.[i], hue, 'question', name)] as const;
        }),
      ),
    ),
  );
  return Promise.all(
    demoCommunities.map(async (c): Promise<DemoSeason> => {
      const series = demoSeries(c);
      // A community's series and games are drawn in its colours, as the community is.
      const draw = async (name: string, emoji: string | undefined, style: PictureStyle, key: string) =>
        [name, await picture(emoji, c.hue, style, key)] as const;
      const files = new Map<string, Buffer>(
        await Promise.all([
          draw(communityImage(c.endpoint), communityEmoji[c.endpoint], 'community', c.endpoint),
          ...series.map((s) => {
            const key = `${c.endpoint}/${s.endpoint}`;
            return draw(seriesImage(c.endpoint, s.endpoint), seriesEmoji[key], 'series', key);
          }),
          ...series.flatMap((s) =>
            s.games.map((g) => {
              const key = `${c.endpoint}/${s.endpoint}/${g.key}`;
              return draw(gameImage(c.endpoint, s.endpoint, g.key), gameEmoji[key], 'game', key);
            }),
          ),
        ]),
      );
      const groups: Record<string, string[]> = {};
      for (const cat of c.categories) {
        // A category of the unnamed group has no group to write: the seed creates those beforehand.
        if (cat.group !== null) groups[cat.group] = [...(groups[cat.group] ?? []), cat.name];
      }
      const game = (s: DemoSeries, g: DemoSeries['games'][number]): SeasonGameInput => {
        const questions = questionsOf(g.theme);
        for (const q of questions) files.set(q.image!, questionPictures.get(q.image!)!);
        const schedule = w[g.window];
        return {
          key: g.key,
          ...(g.name !== undefined && { name: g.name }),
          image: gameImage(c.endpoint, s.endpoint, g.key),
          schedule: {
            open: schedule.open.toISOString(),
            standby: schedule.standby.toISOString(),
            complete: schedule.complete.toISOString(),
          },
          ...(g.teams.length > 0 && { subcommunities: g.teams }),
          questions,
        };
      };
      return {
        endpoint: c.endpoint,
        season: {
          community: {
            endpoint: c.endpoint,
            name: c.name,
            description: c.description,
            image: communityImage(c.endpoint),
            listed: true,
            categories: c.categories.map((cat) => cat.name),
          },
          ...(Object.keys(groups).length > 0 && { category_groups: groups }),
          series: series.map((s) => ({
            endpoint: s.endpoint,
            name: s.name,
            description: s.description,
            image: seriesImage(c.endpoint, s.endpoint),
            games: s.games.map((g) => game(s, g)),
          })),
        },
        files,
        games: series.flatMap((s) => s.games.map((g) => ({ ...g, series: s.endpoint }))),
      };
    }),
  );
}
