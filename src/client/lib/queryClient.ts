import { QueryClient } from '@tanstack/react-query';

/**
 * No automatic retries, no refetch on window focus or on an interval, and cached data
 * never goes stale by time (screens that poll, such as scraper status, opt in per query).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}
