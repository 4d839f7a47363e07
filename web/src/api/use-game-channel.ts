import {
  DATA_NAMESPACE,
  type DataClientToServer,
  type DataServerToClient,
  type Game,
  type GameStateEvent,
} from '@hunch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { queryKeys } from './query-keys';
import { socketOptions } from './socket-options';
import { whenIdle } from './when-idle';

type DataSocket = Socket<DataServerToClient, DataClientToServer>;

let socket: Promise<DataSocket> | null = null;
/** Game screens currently shown; the connection lives exactly while there is at least one (spec §4). */
let holders = 0;

/**
 * The /data connection, made once. socket.io's client is loaded with it: a game screen's first
 * render needs neither (the game comes from the API), so neither is in its first screen.
 */
function dataSocket(): Promise<DataSocket> {
  socket ??= import('socket.io-client').then(
    ({ io }) => io(DATA_NAMESPACE, { ...socketOptions, autoConnect: false }),
    (err: unknown) => {
      // Not loaded (offline, a new deploy): the next screen tries again.
      socket = null;
      throw err;
    },
  );
  return socket;
}

/**
 * Watches one game on /data while the calling screen is shown and `enabled` holds: names the game on
 * every (re)connect, keeps the game query in step with the server's `game_state` pushes, and calls
 * `onMissing` when the server acknowledges with nothing (unknown game: spec §7 failure callback).
 * The connection opens once the screen has rendered (whenIdle): the acknowledgement's game then
 * replaces whatever the API said, so a change in between is not missed.
 */
export function useGameChannel(uuid: string, onMissing: () => void, enabled = true): void {
  const queryClient = useQueryClient();
  const missing = useRef(onMissing);
  missing.current = onMissing;

  useEffect(() => {
    if (!uuid || !enabled) return;
    let s: DataSocket | null = null;
    let gone = false;
    const watch = () => {
      s?.emit('game', uuid, (game: Game | null) => {
        if (!game) {
          missing.current();
          return;
        }
        queryClient.setQueryData(queryKeys.game(uuid), game);
      });
    };
    const onState = (event: GameStateEvent) => {
      if (event.game !== uuid) return;
      queryClient.setQueryData<Game>(queryKeys.game(uuid), (g) => (g ? { ...g, state: event.state } : g));
      // Lists, statuses and (once scored) ranks follow from the state: fetch them anew.
      void queryClient.invalidateQueries({ queryKey: queryKeys.game(uuid) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.playGames });
      void queryClient.invalidateQueries({ queryKey: queryKeys.seriesAll });
      if (event.state === 'complete') {
        // Scored, or scored again after a host's correction: points, ranks and statistics too.
        for (const queryKey of [
          queryKeys.participation(uuid),
          queryKeys.myResult(uuid),
          queryKeys.leaderboards(uuid),
          queryKeys.questionStatsAll(uuid),
        ]) {
          void queryClient.invalidateQueries({ queryKey });
        }
      }
    };
    holders += 1;
    const cancel = whenIdle(() => {
      dataSocket().then(
        (opened) => {
          if (gone) return;
          s = opened;
          s.on('connect', watch);
          s.on('game_state', onState);
          if (s.connected) watch();
          else s.connect();
        },
        // Without the client the screen still shows the API's answers, refreshed at each boundary.
        () => {},
      );
    });
    return () => {
      gone = true;
      cancel();
      s?.off('connect', watch);
      s?.off('game_state', onState);
      holders -= 1;
      if (holders === 0) {
        socket?.then(
          (opened) => holders === 0 && opened.disconnect(),
          () => {},
        );
      }
    };
  }, [uuid, enabled, queryClient]);
}
