import {
  accountMessages,
  type GameClientToServer,
  type GameServerToClient,
  gameHandshakeQuerySchema,
} from '@hunch/contract';
import type { Namespace, Socket } from 'socket.io';
import type { AppContext } from '../platform/app-context';
import { accountChanged } from '../platform/sessions';
import { playerStanding } from './live-queries';
import { representationRefusal } from './live-refusals';
import type { LiveScheduleCache } from './live-schedule';
import type { PlayerSockets } from './player-sockets';

export interface LiveSocketData {
  userId: number;
  /** The session it opened with (sessionKey): a logout of that session ends the socket. */
  session: number;
  gameId: string;
  subcommunity: string | null;
  participationId: number | null;
  /** The lobby join in flight: an answer sent right behind it waits for it instead of being refused. */
  joining?: Promise<boolean>;
  /** Answers of this socket not yet acknowledged (LIVE_ANSWERS_WAITING_MAX). */
  answering: number;
}

export type LiveNamespace = Namespace<
  GameClientToServer,
  GameServerToClient,
  Record<string, never>,
  LiveSocketData
>;
export type LiveSocket = Socket<
  GameClientToServer,
  GameServerToClient,
  Record<string, never>,
  LiveSocketData
>;

/**
 * Live sockets one player may hold in a process, over every game: a few tabs, and a socket or two
 * of a dropped connection not yet noticed as gone. The benchmark's players hold one each.
 */
export const LIVE_SOCKETS_PER_PLAYER = 8;

export const TOO_MANY_LIVE_TABS =
  'This account has too many live games open: close another tab and try again';

/** Resolves the logged-in user of a socket handshake, and its session's key, from its session cookie. */
export type HandshakeSession = (
  cookieHeader: string | undefined,
) => Promise<{ userId: number; session: number } | null>;

/**
 * The middleware of every /game/{uuid} socket: who may open one (a signed-in member of the game's
 * community, for a team they may represent, under the account their tab shows), and what the
 * socket holds from then on (`socket.data`). Each refusal is a sentence the player reads.
 */
export function liveAdmission(
  ctx: AppContext,
  schedules: LiveScheduleCache,
  handshakeSession: HandshakeSession,
  players: PlayerSockets<LiveSocket>,
) {
  return async (socket: LiveSocket, next: (refusal?: Error) => void) => {
    let reserved: number | null = null;
    try {
      const signedIn = await handshakeSession(socket.request.headers.cookie);
      if (signedIn === null) return next(new Error('Log in to play'));
      const { userId, session } = signedIn;
      // Before anything else is looked up: one account's thousands of sockets in a game had each
      // question sent to it thousands of times, and their handshakes held other players' calls.
      if (!players.reserve(userId, LIVE_SOCKETS_PER_PLAYER)) return next(new Error(TOO_MANY_LIVE_TABS));
      reserved = userId;
      const gameId = socket.nsp.name.slice('/game/'.length);
      const info = await schedules.get(gameId);
      if (!info) return next(new Error('No such live game'));
      // Validated at the edge like every payload; 'null' is what a client without a team sends.
      const { subcommunity, account } = socket.handshake.query;
      const query = gameHandshakeQuerySchema.safeParse({ subcommunity, account });
      if (!query.success) return next(new Error('No such community in this game'));
      // A tab that shows another account than the session's: a login in another tab since.
      if (accountChanged(query.data.account, userId)) return next(new Error(accountMessages.accountChanged));
      const asked = query.data.subcommunity;
      const sub = asked && asked !== 'null' ? asked : null;
      // The community the player asks to play for, when the game has it: they must be its member,
      // and it must be the one their entry represents (leaving it drops the representation).
      const represented = sub ? info.subcommunities.get(sub) : undefined;
      const standing = await playerStanding(
        ctx.db,
        userId,
        info.communityId,
        gameId,
        represented?.id ?? null,
      );
      if (!standing.member) return next(new Error(`Join ${info.communityName} to play`));
      if (represented) {
        const refusal = representationRefusal(info, represented, standing.entry, standing.entrySub);
        if (refusal) return next(new Error(refusal));
        if (!standing.subMember) return next(new Error(`Join ${represented.name} to represent it`));
      }
      // `joining` from the start: a property added later takes room of its own, per player. The
      // game's id is the schedule's string, not a slice of the namespace's name per player.
      socket.data = {
        userId,
        session,
        gameId: info.gameId === gameId ? info.gameId : gameId,
        subcommunity: sub,
        participationId: standing.entry,
        joining: undefined,
        answering: 0,
      };
      next();
    } catch {
      next(new Error('The game is not available right now'));
    } finally {
      // next() has run: a refused socket is gone, an admitted one is added on its connection.
      if (reserved !== null) players.admitted(reserved);
    }
  };
}
