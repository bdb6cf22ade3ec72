// What every official source's reader shares: its context and its error.
import type { Sql } from '#server/db.ts';
import type { ObservationInput } from '#server/queries/official.ts';
import { recordFetch } from '#server/queries/official.ts';
import type { OfficialSource } from '#shared/official.ts';
import type { OfficialConfig } from './config.ts';
import type { OfficialHttp, OfficialResponse } from './http.ts';

export interface SourceContext {
  sql: Sql;
  http: OfficialHttp;
  config: OfficialConfig;
  now: Date;
  signal?: AbortSignal | undefined;
  /** Keeps an answer (gzipped) with its fetch time; its id. */
  keep(
    url: string,
    response: OfficialResponse | null,
    outcome: 'parsed' | 'refused' | 'failed',
    message?: string,
  ): Promise<number>;
}

export interface SourceReading {
  /** The fetch whose answer the figures came from (the last one read). */
  fetchId: number;
  observations: ObservationInput[];
  /** Said in the worker log: what was asked and read. */
  summary: string;
}

export interface SourceReader {
  source: OfficialSource;
  /** Why the source is off with this configuration (no key), or null when it can run. */
  off(config: OfficialConfig): string | null;
  /** Requests a UTC day at most. */
  dailyLimit(config: OfficialConfig): number;
  read(ctx: SourceContext): Promise<SourceReading>;
}

/** A source answered, and the answer is a refusal or unreadable: kept, and the source marked failing. */
export class SourceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceFailure';
  }
}

export function keeper(sql: Sql, source: OfficialSource, fetchedAt: Date): SourceContext['keep'] {
  return (url, response, outcome, message) =>
    recordFetch(sql, {
      source,
      url,
      httpStatus: response?.status ?? null,
      body: response?.body ?? null,
      outcome,
      message: message ?? null,
      fetchedAt,
    });
}
