import { LEADERBOARD_SCROLL_PX } from '@hunch/contract';
import { useCallback, useEffect, useRef } from 'react';

interface InfiniteScroll {
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
  /** Rows shown so far: after each page the check runs again, as the rows may not fill the window. */
  size: number;
}

/** Loads the next page when the window is scrolled within 300 px of the bottom (spec §4, §9). */
export function useInfiniteScroll({ hasMore, loading, loadMore, size }: InfiniteScroll): void {
  const state = useRef({ hasMore, loading, loadMore });
  state.current = { hasMore, loading, loadMore };

  const check = useCallback(() => {
    const s = state.current;
    if (!s.hasMore || s.loading) return;
    const bottom = window.scrollY + window.innerHeight;
    if (bottom >= document.documentElement.scrollHeight - LEADERBOARD_SCROLL_PX) s.loadMore();
  }, []);

  useEffect(() => {
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [check]);

  useEffect(() => {
    if (size > 0 && hasMore && !loading) check();
  }, [size, hasMore, loading, check]);
}
