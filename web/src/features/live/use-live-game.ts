import {
  type GameClientToServer,
  type GameServerToClient,
  gameNamespace,
  type LiveAnswer,
} from '@hunch/contract';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { shownAccount } from '../../api/client';
import { socketOptions } from '../../api/socket-options';
import { initialLiveState, type LiveState, liveReducer } from './live-state';

type GameSocket = Socket<GameServerToClient, GameClientToServer>;

interface UseLiveGameOptions {
  uuid: string;
  /** The subcommunity the player represents (handshake query); null when the game has none. */
  subcommunity: string | null;
  /** The game's state on /data; a lobby that was not open yet is tried again when it changes. */
  gameState: string;
  /** The logged-in player's username (null while unknown): their other tabs share stored answers. */
  player: string | null;
  /** Called once the server has put the player in the game (the entry now exists). */
  onJoined: () => void;
}

export interface LiveGame {
  state: LiveState;
  /** Sends an answer for the question in progress (one per question; the first stored wins). */
  answer: (answer: LiveAnswer) => void;
  /** Connects again after a refusal or a closed connection. */
  retry: () => void;
  /** Leaves the lobby before the game starts (the entry goes); resolves false once it has started. */
  leave: () => Promise<boolean>;
}

/**
 * The real-time connection to /game/{uuid} (spec §4, §7): opened when the live screen mounts,
 * closed when it unmounts. Joins the lobby on every (re)connection (the server treats a repeat as a
 * no-op, and late joiners enter the game in progress), and turns server events into LiveState.
 */
export function useLiveGame({
  uuid,
  subcommunity,
  gameState,
  player,
  onJoined,
}: UseLiveGameOptions): LiveGame {
  const [state, dispatch] = useReducer(liveReducer, initialLiveState);
  const socketRef = useRef<GameSocket | null>(null);
  const tabsRef = useRef<BroadcastChannel | null>(null);
  const joinedRef = useRef(onJoined);
  joinedRef.current = onJoined;
  const wasJoined = useRef(false);

  const joinLobby = useCallback((socket: GameSocket) => {
    socket.emit('lobby', (joined) => {
      dispatch({ type: 'lobby', joined });
      if (joined && !wasJoined.current) {
        wasJoined.current = true;
        joinedRef.current();
      }
    });
  }, []);

  useEffect(() => {
    dispatch({ type: 'connecting' });
    const socket: GameSocket = io(gameNamespace(uuid), {
      ...socketOptions,
      // The account this tab shows: a socket opened under another's session is refused (decision 036).
      query: { subcommunity: subcommunity ?? '', account: shownAccount() ?? '' },
      // A manager of its own: sharing the /data socket's would drop this socket's query and close
      // with it when the /data socket goes away.
      forceNew: true,
    });
    socketRef.current = socket;

    socket.on('connect', () => {
      dispatch({ type: 'connected' });
      joinLobby(socket);
    });
    socket.on('connect_error', (err) => {
      // A refusal by the server's middleware is final; anything else is retried by socket.io.
      if (socket.active) dispatch({ type: 'connection-lost', retrying: true, problem: null });
      else dispatch({ type: 'refused', problem: err.message || 'The live game is not available' });
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io client disconnect') return;
      dispatch({
        type: 'connection-lost',
        retrying: socket.active,
        problem: socket.active ? null : 'The game server closed the connection',
      });
    });
    // The browser says at once when its network goes; the connection's heartbeat would notice only
    // after up to half a minute, with an answer 'sending' all the while. Closing the transport
    // reports the answer unconfirmed now, and socket.io reconnects once the network is back.
    const offline = () => {
      if (socket.connected) socket.io.engine?.close();
    };
    window.addEventListener('offline', offline);
    socket.on('latency', (ack) => ack());
    socket.on('resume', (event) => dispatch({ type: 'resume', event, now: Date.now() }));
    socket.on('lobby_count', ({ count }) => dispatch({ type: 'count', count }));
    socket.on('game_start', () => dispatch({ type: 'game-start', now: Date.now() }));
    socket.on('countdown', ({ secs }) => dispatch({ type: 'countdown', secs, now: Date.now() }));
    socket.on('question', (event) => dispatch({ type: 'question', event, now: Date.now() }));
    socket.on('question_result', (event) => dispatch({ type: 'result', event }));
    socket.on('game_complete', () => dispatch({ type: 'complete' }));

    return () => {
      window.removeEventListener('offline', offline);
      socket.removeAllListeners();
      socket.disconnect();
      socketRef.current = null;
    };
  }, [uuid, subcommunity, joinLobby]);

  // The player's other tabs of this game in this browser: an answer stored in one shows as stored
  // in the others at once (another device learns it on its next connection, from the resume).
  useEffect(() => {
    if (!player || typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(`hunch-live:${uuid}:${player}`);
    tabsRef.current = channel;
    // The check (zod) loads with the channel, after the game page's first screen (decision 025):
    // fetched on the first message instead, it could arrive after a short question had closed.
    const check = import('./tab-answer');
    channel.onmessage = (e: MessageEvent) => {
      void check.then(({ tabAnswerOf }) => {
        const answer = tabAnswerOf(e.data);
        if (answer) dispatch({ type: 'stored-elsewhere', answer });
      });
    };
    return () => {
      channel.close();
      tabsRef.current = null;
    };
  }, [uuid, player]);

  // A lobby that was not open yet at connection is tried again once the game opens.
  const latest = useRef(state);
  latest.current = state;
  useEffect(() => {
    const socket = socketRef.current;
    if (gameState === 'open' && socket?.connected && latest.current.joined === false) joinLobby(socket);
  }, [gameState, joinLobby]);

  // The question closes when its time runs out, whether or not the next event has arrived yet.
  const { stage } = state;
  useEffect(() => {
    if (stage.kind !== 'question') return;
    const i = stage.question.i;
    const timer = window.setTimeout(
      () => dispatch({ type: 'time-up', i }),
      Math.max(0, stage.deadline - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [stage]);

  const answer = useCallback(
    (a: LiveAnswer) => {
      const socket = socketRef.current;
      if (!socket || state.sending !== null || state.answers[a.question_i]) return;
      dispatch({ type: 'sending', i: a.question_i });
      // emitWithAck is told when the connection drops before the acknowledgement (a plain callback
      // would be dropped, leaving the answer "sending"), and sets no acknowledgement timeout (§7).
      socket.emitWithAck('answer', a).then(
        (ack) => {
          dispatch({ type: 'ack', i: a.question_i, ack });
          if (ack.answer) tabsRef.current?.postMessage(ack.answer);
        },
        () => dispatch({ type: 'ack-lost', i: a.question_i }),
      );
    },
    [state.sending, state.answers],
  );

  const retry = useCallback(() => {
    const socket = socketRef.current;
    if (!socket || socket.connected) return;
    dispatch({ type: 'connecting' });
    socket.connect();
  }, []);

  const leave = useCallback(async () => {
    const socket = socketRef.current;
    if (!socket?.connected) return false;
    // Not joined again at the next reconnection of this panel, which is on its way out.
    wasJoined.current = false;
    return socket.emitWithAck('leave_lobby').catch(() => false);
  }, []);

  return { state, answer, retry, leave };
}
