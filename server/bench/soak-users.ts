import type { Game, JoinedList, QuestionItem } from '@hunch/contract';
import { demoZipcodes } from '../src/seed/demo-content';
import { DEMO_LOGIN } from '../src/seed/demo-seed';
import { sleep } from './bench-util';
import { SoakHttp } from './soak-client';
import { playLiveGame, randomAnswer, type SoakWorld } from './soak-live';
import { forwardedFor } from './soak-report';

// One simulated person: signs up, then browses, joins communities, plays open games, reads
// results and joins live games, with a few seconds of thinking between actions, until the soak ends.

export type { SoakWorld };

const GENDERS = ['female', 'male', 'non-binary', ''] as const;
/** People stop joining after a handful of communities. */
const MAX_JOINED = 6;
/** Share of users who go into a live game's lobby when they see one open. */
const LIVE_TAKE_UP = 0.7;

const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];
const chance = (p: number) => Math.random() < p;

export class SoakUser {
  private readonly http: SoakHttp;
  private joined = new Set<string>();
  private communities: string[] = [];
  private categories: string[] = [];
  private readonly games = new Map<string, Game>();
  private readonly series = new Map<string, { community: string; series: string }>();
  /** Public players seen on leaderboards, whose profiles and ranks the user looks at. */
  private players: string[] = [];
  private readonly livePlayed = new Set<string>();

  /** What the user does, and how often (weights). */
  private readonly actions: [number, string, () => Promise<void>][] = [
    [10, 'search', () => this.search(false)],
    [5, 'search by category', () => this.search(true)],
    [12, 'community page', () => this.communityPage()],
    [5, 'series page', () => this.seriesPage()],
    [7, 'game page', () => this.gamePage()],
    [5, 'join', () => this.join().then(() => undefined)],
    [3, 'joined list', () => this.joinedList()],
    [14, 'play list', () => this.playList()],
    [12, 'play a game', () => this.playOpenGame()],
    [12, 'results', () => this.results()],
    [5, 'community rank', () => this.communityRank()],
    [5, 'profile', () => this.profile()],
  ];

  constructor(
    private readonly i: number,
    private readonly world: SoakWorld,
  ) {
    this.http = new SoakHttp(world.base, forwardedFor(i), world.tally);
  }

  async run(): Promise<void> {
    if (!(await this.signUp())) return;
    this.world.active.users++;
    try {
      while (this.timeLeft() > 0) {
        const [, name, action] = this.chooseAction();
        try {
          await action();
        } catch (err) {
          // A bug of the soak's own (or an answer of an unexpected shape): counted, and on we go.
          this.world.tally.error(
            `soak user failed in '${name}'`,
            err instanceof Error ? err.message : String(err),
          );
        }
        await this.think();
      }
    } finally {
      this.world.active.users--;
    }
  }

  private timeLeft(): number {
    return this.world.deadline - Date.now();
  }

  /** 1–5 s, as a person reads a page; never past the end of the soak. */
  private think(minMs = 1_000, maxMs = 5_000): Promise<void> {
    return sleep(Math.min(this.timeLeft(), minMs + Math.random() * (maxMs - minMs)));
  }

  private chooseAction() {
    const total = this.actions.reduce((a, [w]) => a + w, 0);
    let r = Math.random() * total;
    for (const a of this.actions) {
      r -= a[0];
      if (r < 0) return a;
    }
    return this.actions[0]!;
  }

  private async signUp(): Promise<boolean> {
    // The app opens on community search.
    await this.search(false);
    await this.think(500, 2_000);
    if (this.i === 0) {
      // One user plays the demo account (README); more would share its entries and race each other.
      const { body } = await this.http.call('login', { form: { ...DEMO_LOGIN } });
      if (!body) return false;
      this.http.sessionChanged();
      this.joined = new Set(Object.keys(body.joined_communities));
      return true;
    }
    const username = `soak${this.world.runTag}_${this.i}`;
    const year = new Date().getUTCFullYear() - 13 - Math.floor(Math.random() * 55);
    const form: Record<string, string> = {
      username,
      password: 'soak!pass42',
      email: `${username}@example.com`,
      zipcode: pick(demoZipcodes)!,
      date_of_birth: `${year}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`,
    };
    // The register form checks each field after a second without typing.
    for (const [field, value] of [
      ['username', form.username],
      ['email', form.email],
      ['zipcode', form.zipcode],
      ['DoB', form.date_of_birth],
    ] as const) {
      await this.http.call('checkRegistration', { params: { field }, query: { check: value } });
      await this.think(300, 1_500);
    }
    const gender = pick(GENDERS)!;
    if (gender) form.gender = gender;
    const { body } = await this.http.call('register', { form });
    if (!body) return false;
    this.http.sessionChanged();
    this.joined = new Set(Object.keys(body.joined_communities));
    return true;
  }

  private remember(games: readonly Game[]): void {
    for (const g of games) this.games.set(g.uuid, g);
  }

  private setJoined(list: JoinedList): void {
    this.joined = new Set(list.map((c) => c.endpoint));
  }

  private knownGames(test: (g: Game) => boolean): Game[] {
    return [...this.games.values()].filter(test);
  }

  private async search(byCategory: boolean): Promise<void> {
    const c = byCategory ? pick(this.categories) : undefined;
    const { body } = await this.http.call('communitySearch', c ? { query: { c } } : {});
    if (!body) return;
    if (!c) this.communities = body.communities.map((x) => x.endpoint);
    this.categories = body.categories.flatMap((g) => g.categories);
  }

  private async communityPage(endpoint = pick([...this.communities, ...this.joined])): Promise<void> {
    if (!endpoint) return this.search(false);
    const { body } = await this.http.call('community', { params: { id: endpoint } });
    if (!body) return;
    this.remember(body.game_list);
    for (const s of body.series)
      this.series.set(`${endpoint}/${s.endpoint}`, { community: endpoint, series: s.endpoint });
  }

  private async seriesPage(): Promise<void> {
    const s = pick([...this.series.values()]);
    if (!s) return this.communityPage();
    const { body } = await this.http.call('series', { params: s });
    if (body) this.remember(body.games);
  }

  private async gamePage(): Promise<void> {
    const g = pick([...this.games.keys()]);
    if (!g) return this.communityPage();
    const { body } = await this.http.call('game', { params: { uuid: g } });
    if (body) this.remember([body]);
  }

  private async join(endpoint?: string): Promise<boolean> {
    if (!endpoint) {
      if (this.joined.size >= MAX_JOINED) return this.communityPage().then(() => false);
      // Most people join the home of the daily and live games first.
      const open = this.communities.filter((c) => !this.joined.has(c));
      endpoint = open.includes('hunch-hq') && chance(0.6) ? 'hunch-hq' : pick(open);
      if (!endpoint) return this.search(false).then(() => false);
      await this.communityPage(endpoint);
      await this.think();
    }
    const { body } = await this.http.call('joinCommunity', { params: { id: endpoint } });
    if (body) this.setJoined(body);
    return Boolean(body);
  }

  private async joinedList(): Promise<void> {
    const { body } = await this.http.call('joinedCommunities');
    if (body) this.setJoined(body);
  }

  /** The play area; a live game's lobby there is an invitation most take up. */
  private async playList(): Promise<void> {
    const { body } = await this.http.call('playGames');
    if (!body) return;
    this.remember(body);
    const lobby = body.find(
      (g) =>
        g.synchronous &&
        g.state === 'open' &&
        this.joined.has(g.community.endpoint) &&
        !this.livePlayed.has(g.uuid),
    );
    if (lobby && chance(LIVE_TAKE_UP)) await this.playLive(lobby);
  }

  /** A team to represent in a game with subcommunities: one already joined, or one joined now. */
  private async teamFor(game: Game): Promise<string | null | undefined> {
    const teams = Object.keys(game.subcommunities);
    if (teams.length === 0) return null;
    const mine = pick(teams.filter((t) => this.joined.has(t)));
    if (mine) return mine;
    const team = pick(teams)!;
    return (await this.join(team)) ? team : undefined;
  }

  private async playLive(game: Game): Promise<void> {
    this.livePlayed.add(game.uuid);
    // The game page first, as the web app shows it before the lobby.
    await this.http.call('game', { params: { uuid: game.uuid } });
    await this.http.call('participation', { params: { uuid: game.uuid } }, [404]);
    const team = await this.teamFor(game);
    if (team === undefined) return;
    this.world.active.live++;
    try {
      await playLiveGame(this.http, this.world, game, team);
    } finally {
      this.world.active.live--;
    }
  }

  /** Enters an open game played at one's own pace and answers its questions (or updates a few). */
  private async playOpenGame(): Promise<void> {
    const game = pick(
      this.knownGames((g) => !g.synchronous && g.state === 'open' && this.joined.has(g.community.endpoint)),
    );
    if (!game) return this.playList();
    const uuid = game.uuid;
    await this.http.call('game', { params: { uuid } });
    const mine = await this.http.call('participation', { params: { uuid } }, [404]);
    let questions: QuestionItem[];
    if (mine.status === 404) {
      const team = await this.teamFor(game);
      if (team === undefined) return;
      await this.think();
      const entered = await this.http.call('enterGame', { params: { uuid }, json: { subcommunity: team } });
      if (!entered.body) return;
      questions = entered.body.entry.questions;
    } else if (mine.body) {
      // Already in: change an answer or two.
      questions = mine.body.entry.questions.filter(() => chance(0.3));
    } else return;
    for (const q of questions) {
      await this.think();
      if (this.timeLeft() <= 0) return;
      await this.http.call('answer', {
        params: { series: game.series.endpoint, uuid },
        json: randomAnswer(q),
      });
    }
  }

  /** A complete game's leaderboards and question breakdown. */
  private async results(): Promise<void> {
    const game = pick(
      this.knownGames((g) => g.state === 'complete' && this.joined.has(g.community.endpoint)),
    );
    if (!game) return this.playList();
    const uuid = game.uuid;
    // One's own result first, when one played (404: did not).
    await this.http.call('participation', { params: { uuid } }, [404]);
    const board = await this.http.call('leaderboard', { params: { uuid }, query: { p: 1 } });
    if (board.body) {
      const seen = Object.entries(board.body).filter(([, row]) => 'pvt' in row && !row.pvt);
      if (seen.length) this.players = seen.map(([name]) => name).slice(0, 20);
    }
    if (chance(0.3)) {
      // Scrolled to the bottom: the next page.
      await this.think(500, 2_000);
      await this.http.call('leaderboard', { params: { uuid }, query: { p: 2 } });
    }
    if (Object.keys(game.subcommunities).length && chance(0.6)) {
      await this.think();
      await this.http.call('leaderboard', { params: { uuid }, query: { p: 1, bycommunity: '1' } });
    }
    await this.think();
    await this.http.call('questionStats', { params: { uuid } });
    if (chance(0.5)) {
      const filters = (['age', 'geo', 'community'] as const).filter((k) => game.groups[k].length);
      const key = pick(filters);
      const value = key && pick(game.groups[key]);
      if (key && value) {
        await this.think();
        await this.http.call('questionStats', { params: { uuid }, query: { [key]: value } });
      }
    }
  }

  private async communityRank(): Promise<void> {
    const community = pick([...this.joined]);
    if (!community) return this.join().then(() => undefined);
    const u = chance(0.3) ? pick(this.players) : undefined;
    await this.http.call('communityRank', { params: { community }, query: { u } });
  }

  private async profile(): Promise<void> {
    const u = chance(0.5) ? pick(this.players) : undefined;
    await this.http.call('profile', { query: { u } });
  }
}
