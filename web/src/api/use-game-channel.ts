import {
  DATA_NAMESPACE,
  type DataClientToServer,
  type DataServerToClient,
  type Game,
  type GameStateEvent,
} from '@hunch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { queryKeys } from './query-keys';
import { socketOptions } from './socket-options';

type DataSocket = Socket<DataServerToClient, DataClientToServer>;

let socket: DataSocket | null = null;
/** Game screens currently shown; the connection lives exactly while there is at least one (spec §4). */
let holders = 0;

function dataSocket(): DataSocket {
  socket ??= io(DATA_NAMESPACE, { ...socketOptions, autoConnect: false });
  return socket;
}

/**
 * Watches one game on /data while the calling screen is shown: names the game on every (re)connect,
 * keeps the game query in step with the server's `game_state` pushes, and calls `onMissing` when the
 * server acknowledges with nothing (unknown game: spec §7 failure callback).
 */
export function useGameChannel(uuid: string, onMissing: () => void): void {
  const queryClient = useQueryClient();
  const missing = useRef(onMissing);
  missing.current = onMissing;

  useEffect(() => {
    if (!uuid) return;
    const s = dataSocket();
    const watch = () => {
      s.emit('game', uuid, (game: Game | null) => {
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
        void queryClient.invalidateQueries({ queryKey: queryKeys.participation(uuid) });
      }
    };
    s.on('connect', watch);
    s.on('game_state', onState);
    holders += 1;
    if (s.connected) watch();
    else s.connect();
    return () => {
      s.off('connect', watch);
      s.off('game_state', onState);
      holders -= 1;
      if (holders === 0) s.disconnect();
    };
  }, [uuid, queryClient]);
}
