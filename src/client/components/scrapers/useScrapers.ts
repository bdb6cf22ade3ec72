// Scraper status and starts for the admin screens: the status is polled
// every 30 s, every 2 s while a run is queued or running; a start (one store's, or Run all) shows
// its toasts and, 10 s later, refreshes the prices, the statistics and the status.
import { useEffect, useRef } from 'react';
import type { ScraperStatus } from '#shared/scrape.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { failureMessage } from '#client/components/auth/errors.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { trpc } from '#client/lib/trpc.ts';

export const STATUS_POLL_MS = 30_000;
export const ACTIVE_POLL_MS = 2_000;
export const REFRESH_AFTER_START_MS = 10_000;

const pollEvery = (active: boolean) => (active ? ACTIVE_POLL_MS : STATUS_POLL_MS);

/** Every store's status (GET /api/scrape/all-status), polled. */
export function useAllScraperStatus() {
  return trpc.scrape.allStatus.useQuery(undefined, {
    refetchInterval: (query) => pollEvery(Object.values(query.state.data ?? {}).some((s: ScraperStatus) => s.active)),
    refetchIntervalInBackground: false,
  });
}

/** The dashboard card's scraper status (GET /api/scrape/status), polled. */
export function useWalmartScraperStatus() {
  return trpc.scrape.status.useQuery(undefined, {
    refetchInterval: (query) => pollEvery(query.state.data?.active ?? false),
    refetchIntervalInBackground: false,
  });
}

/**
 * After a start: the scrape data at once, and 10 s later the prices, the statistics and the
 * status. Pending refreshes are dropped when the screen goes away.
 */
function useRefreshAfterStart(): () => void {
  const utils = trpc.useUtils();
  const timers = useRef<Set<ReturnType<typeof setTimeout>>>(new Set());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
    };
  }, []);
  return () => {
    void utils.scrape.invalidate();
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      void Promise.all([
        utils.prices.invalidate(),
        utils.stats.invalidate(),
        utils.stores.invalidate(),
        utils.compare.invalidate(),
        utils.scrape.invalidate(),
      ]);
    }, REFRESH_AFTER_START_MS);
    timers.current.add(timer);
  };
}

/**
 * Starts a store's scraper. `dashboard` uses the dashboard card's texts ('... Please
 * try again later.').
 */
export function useStartScraper(options: { dashboard?: boolean } = {}) {
  const refresh = useRefreshAfterStart();
  return trpc.scrape.start.useMutation({
    onSuccess: (_data, input) => {
      const name = SCRAPER_NAMES[input.store as StoreId];
      toaster.create({
        type: 'success',
        title: 'Scraper Started',
        description: `The ${name} scraper is now collecting egg prices. This may take a few minutes.`,
        duration: 5000,
      });
      refresh();
    },
    onError: (error, input) => {
      const name = SCRAPER_NAMES[input.store as StoreId] ?? 'store';
      const fallback = options.dashboard
        ? `Failed to start the ${name} scraper. Please try again later.`
        : `Failed to start the ${name} scraper.`;
      toaster.create({
        type: 'error',
        title: 'Scraper Error',
        description: failureMessage(error, fallback),
        duration: 5000,
      });
    },
  });
}

/** Run all: every active store's scraper; the answer names the stores that were already busy. */
export function useStartAllScrapers() {
  const refresh = useRefreshAfterStart();
  return trpc.scrape.startAll.useMutation({
    onSuccess: (data) => {
      toaster.create({
        type: data.busy.length ? 'warning' : 'success',
        title: 'Scrapers Started',
        description: data.message,
        duration: 5000,
      });
      refresh();
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Scraper Error',
        description: failureMessage(error, 'Failed to start the scrapers.'),
        duration: 5000,
      }),
  });
}

/** '1 min 5 s', '42 s'. */
export function formatDuration(ms: number | null): string {
  if (ms === null || ms < 0) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
}
