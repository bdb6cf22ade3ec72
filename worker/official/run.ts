// One fetch of one official source: asked unless it is off (no key) or must not be asked yet
// (its Retry-After, its daily limit); every answer kept; the figures written (new ones inserted,
// revised ones replaced with the old kept, a gap left a gap); the source's status updated: when
// it was fetched and is due next, or its error and since when it fails. Running it twice writes
// nothing twice (the figures are keyed by series and period).
import type { Sql } from '#server/db.ts';
import { applyObservations, markFailed, markFetched, type ApplyResult } from '#server/queries/official.ts';
import { OFFICIAL_SOURCE_INFO, type OfficialSource } from '#shared/official.ts';
import type { OfficialConfig } from './config.ts';
import { NoAnswer, NotBefore, OfficialHttp } from './http.ts';
import { keeper, SourceFailure, type SourceReader } from './source.ts';
import { blsReader } from './bls.ts';
import { usdaRetailReader, usdaWholesaleReader } from './usda.ts';
import { aphisReader } from './aphis.ts';

export const READERS: Record<OfficialSource, SourceReader> = {
  bls: blsReader,
  usda_retail: usdaRetailReader,
  usda_wholesale: usdaWholesaleReader,
  aphis_hpai: aphisReader,
};

/** After a failure, the source is asked again this much later. */
export const RETRY_AFTER_FAILURE_MS = 60 * 60_000;

export type RunOutcome =
  | { kind: 'off'; reason: string }
  | { kind: 'waiting'; until: Date }
  | { kind: 'fetched'; result: ApplyResult; summary: string }
  | { kind: 'failed'; message: string; until: Date };

export async function runOfficialSource(
  sql: Sql,
  config: OfficialConfig,
  source: OfficialSource,
  options: { now?: Date; signal?: AbortSignal | undefined } = {},
): Promise<RunOutcome> {
  const reader = READERS[source];
  const off = reader.off(config);
  if (off) return { kind: 'off', reason: off };
  const now = options.now ?? new Date();
  const [state] = await sql<Array<{ not_before: Date | null }>>`
    select not_before from official_sources where source = ${source}`;
  if (state?.not_before && state.not_before > now) return { kind: 'waiting', until: state.not_before };
  const http = new OfficialHttp({
    sql,
    source,
    dailyLimit: reader.dailyLimit(config),
    timeoutMs: config.timeoutMs,
    now: () => now,
  });
  try {
    const reading = await reader.read({
      sql,
      http,
      config,
      now,
      signal: options.signal,
      keep: keeper(sql, source, now),
    });
    const result = await applyObservations(sql, source, reading.fetchId, now, reading.observations);
    const next = new Date(now.getTime() + OFFICIAL_SOURCE_INFO[source].everyHours * 3600_000);
    await markFetched(sql, source, now, next);
    return { kind: 'fetched', result, summary: reading.summary };
  } catch (error) {
    if (!(error instanceof NotBefore || error instanceof SourceFailure || error instanceof NoAnswer)) throw error;
    const until = error instanceof NotBefore ? error.until : new Date(now.getTime() + RETRY_AFTER_FAILURE_MS);
    await markFailed(sql, source, now, error.message, until, error instanceof NotBefore ? until : null);
    return { kind: 'failed', message: error.message, until };
  }
}
