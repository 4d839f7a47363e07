import type { Game } from '@hunch/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from '../../api/query-keys';
import { useGameChannel } from '../../api/use-game-channel';
import { useRefreshHost } from './host-api';

/**
 * The console follows a game's state as it changes (answers close, results are due): its locks,
 * its outcome fields and its header come without a reload. The /data channel keeps the game query
 * in step with the server; this watches that cache (no request of its own) and fetches the
 * console's data anew at each change of state.
 */
export function useFollowedGame(uuid: string | undefined): void {
  useGameChannel(uuid ?? '', () => undefined, uuid !== undefined);
  const { data } = useQuery<Game>({ queryKey: queryKeys.game(uuid ?? ''), enabled: false });
  const state = data?.state;
  const refresh = useRefreshHost();
  const seen = useRef(state);
  useEffect(() => {
    if (state !== undefined && seen.current !== undefined && state !== seen.current) void refresh();
    seen.current = state;
  }, [state, refresh]);
}
