// The official sources (docs/features/data-sources.md): every source with its status, and each
// series with its points, units, publication days and revisions. Public reads are cached (and
// ETagged by the REST adapter) until the worker's next fetch (NOTIFY eggwatch_official).
// Administrators also see each source's last error and can queue a fetch now.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  nextReleaseExpected,
  OFFICIAL_SOURCE_INFO,
  OFFICIAL_SOURCES,
  officialSeriesInput,
  comparisonInput,
  aphisSeriesId,
  detectionsByStateInput,
  parseOfficialSeriesId,
  type OfficialSource,
  type OfficialSourceView,
} from '#shared/official.ts';
import type { Context } from '../context.ts';
import { detectionsByState, officialPoints, officialSourceRows, queueOfficialFetch } from '../queries/official.ts';
import { coverageFigures } from '../queries/coverage-figures.ts';
import { comparison } from '../queries/comparison.ts';
import { DEFAULT_SCRAPE_CONFIG } from '#shared/scrape.ts';
import { adminProcedure, cachedProcedure, router } from '../trpc.ts';

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const num = (value: unknown) => (typeof value === 'number' ? value : null);
const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

function offReason(ctx: Context, source: OfficialSource): string | null {
  if ((source === 'usda_retail' || source === 'usda_wholesale') && !ctx.config.officialKeys?.usdaMars)
    return 'No USDA MyMarketNews key (USDA_MARS_API_KEY) is set: this source is off.';
  return null;
}

async function sourceViews(ctx: Context): Promise<Array<OfficialSourceView & { lastError: string | null }>> {
  const rows = await officialSourceRows(ctx.sql);
  return OFFICIAL_SOURCES.map((source) => {
    const row = rows.find((r) => r.source === source);
    const off = offReason(ctx, source);
    const { everyHours: _every, ...info } = OFFICIAL_SOURCE_INFO[source];
    const status = off ? 'off' : row?.last_error ? 'failing' : row?.last_fetched_at ? 'ok' : 'not-fetched';
    return {
      source,
      ...info,
      status,
      offReason: off,
      lastPeriod: row?.last_period ?? null,
      lastPublishedOn: row?.last_published_on ?? null,
      lastFetchedAt: iso(row?.last_fetched_at ?? null),
      failingSince: iso(row?.failing_since ?? null),
      // (a source never fetched has no due time: the schedule's next tick asks it)
      nextFetch: off ? 'off' : row?.next_due_at || row?.not_before ? 'scheduled' : 'first',
      nextFetchAt: off ? null : iso(later(row?.next_due_at ?? null, row?.not_before ?? null)),
      nextReleaseExpected: nextReleaseExpected(source, row?.last_period ?? null),
      lastError: row?.last_error ?? null,
    };
  });
}

export const officialRouter = router({
  sources: cachedProcedure(['official']).query(async ({ ctx }) =>
    (await sourceViews(ctx)).map(({ lastError: _hidden, ...view }) => view),
  ),
  series: cachedProcedure(['official'], officialSeriesInput).query(async ({ ctx, input }) => {
    const id = parseOfficialSeriesId(input.seriesId);
    if (!id) throw new TRPCError({ code: 'NOT_FOUND', message: `No official series ${input.seriesId}` });
    if (input.from && input.to && input.from > input.to)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'from must not be after to' });
    const points = await officialPoints(ctx.sql, id.id, { from: input.from, to: input.to });
    return {
      seriesId: id.id,
      source: id.source,
      points: points.map((p) => ({
        period: p.period,
        value: p.value,
        valueText: p.value_text,
        unit: p.unit,
        publishedOn: p.published_on,
        fetchedAt: p.fetched_at.toISOString(),
        low: num(p.detail?.low),
        high: num(p.detail?.high),
        stores: num(p.detail?.stores),
        revisions: p.revisions.map((r) => ({
          value: r.value,
          valueText: r.value_text,
          publishedOn: r.published_on,
          replacedAt: r.replaced_at,
        })),
      })),
    };
  }),
  /** Shelf, advertised and wholesale by week for a region and egg type, with the measured lead and the outlook. */
  comparison: cachedProcedure(['official', 'rollups'], comparisonInput).query(({ ctx, input }) =>
    comparison(ctx.sql, input),
  ),
  /** Bird-flu detections in commercial layer flocks by state (APHIS) from a week on, most hens first. */
  detectionsByState: cachedProcedure(['official'], detectionsByStateInput).query(async ({ ctx, input }) => {
    const rows = await detectionsByState(ctx.sql, input.from);
    return rows.map((r) => ({
      state: r.state,
      seriesId: aphisSeriesId(r.state),
      birds: r.birds,
      detections: r.detections,
      weeks: r.weeks,
      latestWeek: r.latest_week,
    }));
  }),
  /**
   * The scrapers as a source of the Data Sources page: each retailer's coverage figures (stores
   * known, visited in the last day and week, never visited, failing, blocked) and its last run.
   */
  retailers: cachedProcedure(['prices']).query(async ({ ctx }) => {
    const figures = await coverageFigures(ctx.sql, {
      delayMs: ctx.config.scrapeDelayMs ?? DEFAULT_SCRAPE_CONFIG.http.delayMs,
    });
    const runs = await ctx.sql<Array<{ store_id: string; status: string; finished_at: Date | null }>>`
      select distinct on (store_id) store_id, status, finished_at
      from scrape_runs where status in ('succeeded', 'failed')
      order by store_id, finished_at desc nulls last`;
    return figures.map((f) => {
      const run = runs.find((r) => r.store_id === f.store);
      return {
        store: f.store,
        name: f.name,
        active: f.active,
        known: f.known,
        inScope: f.inScope,
        visitedDay: f.visitedDay,
        visitedWeek: f.visitedWeek,
        neverVisited: f.neverVisited,
        failing: f.failing,
        blocked: f.blocked,
        lastRun: run ? { status: run.status, finishedAt: iso(run.finished_at) } : null,
      };
    });
  }),
  /** Administrators: each source's status with its last error. */
  adminStatus: adminProcedure.query(async ({ ctx }) =>
    (await sourceViews(ctx)).map(({ source, status, lastError, failingSince }) => ({
      source,
      status,
      lastError,
      failingSince,
    })),
  ),
  /** Administrators: queue a fetch of the source now (it still waits for a Retry-After or a daily limit). */
  fetchNow: adminProcedure.input(z.object({ source: z.enum(OFFICIAL_SOURCES) })).mutation(async ({ ctx, input }) => {
    const off = offReason(ctx, input.source);
    if (off) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: off });
    await queueOfficialFetch(ctx.sql, input.source);
    return { queued: true };
  }),
});
