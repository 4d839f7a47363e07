import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactElement, ReactNode } from 'react';
import { errorText } from '../../api/client';
import { Loading } from '../../shared/loading';
import { type Ranked, rankedRows } from './leaderboard-pages';
import { useInfiniteScroll } from './use-infinite-scroll';

type Board<T> = UseInfiniteQueryResult<InfiniteData<Record<string, T>>, Error>;

/**
 * What both leaderboards share: the pages merged into rows sorted by rank, the next page loaded on
 * scroll, and the loading or error state to show instead of the table (null when there are rows).
 */
export function useRankedBoard<T extends { r: number }>(
  board: Board<T>,
  loadingLabel: string,
): { rows: Ranked<T>[]; status: ReactElement | null } {
  const rows = rankedRows(board.data?.pages);
  useInfiniteScroll({
    hasMore: board.hasNextPage,
    loading: board.isFetching,
    loadMore: () => void board.fetchNextPage(),
    size: rows.length,
  });
  let status: ReactElement | null = null;
  if (board.isPending) status = <Loading label={loadingLabel} />;
  else if (board.isError && rows.length === 0) {
    status = (
      <p className="form-error" role="alert">
        {errorText(board.error)}
      </p>
    );
  }
  return { rows, status };
}

/** The end of a board's list: a note while the next page loads, the error if one failed, and extras. */
export function BoardEnd<T>({
  board,
  loadingLabel,
  children,
}: {
  board: Board<T>;
  loadingLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="list-end" aria-live="polite">
      {board.isFetchingNextPage && <Loading label={loadingLabel} />}
      {board.isError && (
        <p className="form-error" role="alert">
          {errorText(board.error)}
        </p>
      )}
      {children}
    </div>
  );
}
