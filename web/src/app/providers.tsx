import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { startLoaded } from './start-loaded';

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx is the server's answer (unknown, forbidden...), asking again will not change it.
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  // The app follows the session under the tab: a login or logout in another (follow-session.ts).
  useEffect(
    () => startLoaded(async () => (await import('./follow-session')).followSession(client)),
    [client],
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
