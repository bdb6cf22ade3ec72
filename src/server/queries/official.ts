// The official sources' storage (migration 026; docs/features/data-sources.md): each answer kept
// compressed for audit, each figure as published with where and when it was read, each revision
// kept, and each source's status. Nothing here touches the scraped prices.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Db, Sql } from '../db.ts';
import type { OfficialSource } from '#shared/official.ts';

export interface FetchRecord {
  source: OfficialSource;
  /** The address asked, without any key. */
  url: string;
  httpStatus: number | null;
  body: string | null;
  outcome: 'parsed' | 'refused' | 'failed';
  message?: string | null;
  fetchedAt?: Date;
}

/** Keeps one answer (its body gzipped, or a reference to the same body fetched before); its id. */
export async function recordFetch(sql: Db, record: FetchRecord): Promise<number> {
  const sha = record.body === null ? null : crypto.createHash('sha256').update(record.body).digest('hex');
  const [previous] = sha
    ? await sql<Array<{ id: number }>>`
        select id from official_fetches
        where source = ${record.source} and body_sha256 = ${sha} and same_as is null
        order by id desc limit 1`
    : [];
  const gzip = record.body === null || previous ? null : zlib.gzipSync(Buffer.from(record.body, 'utf8'));
  const [row] = await sql<Array<{ id: number }>>`
    insert into official_fetches (source, url, http_status, fetched_at, body_gzip, body_sha256, same_as, outcome, message)
    values (${record.source}, ${record.url.slice(0, 2000)}, ${record.httpStatus}, ${record.fetchedAt ?? new Date()},
            ${gzip}, ${sha}, ${previous?.id ?? null}, ${record.outcome}, ${record.message?.slice(0, 2000) ?? null})
    returning id`;
  return Number(row!.id);
}

/** A kept answer's body, decompressed (following same_as), or null. */
export async function fetchBody(sql: Db, fetchId: number): Promise<string | null> {
  const [row] = await sql<Array<{ body: Buffer | null }>>`
    select coalesce(f.body_gzip, s.body_gzip) as body
    from official_fetches f left join official_fetches s on s.id = f.same_as
    where f.id = ${fetchId}`;
  return row?.body ? zlib.gunzipSync(row.body).toString('utf8') : null;
}

export interface ObservationInput {
  seriesId: string;
  /** YYYY-MM-DD: a month's first day, a week's report date, a day. */
  period: string;
  valueText: string;
  value: number;
  unit: string;
  detail?: Record<string, unknown> | null;
  /** The source's own publication date; null when unknown; absent, the day of this fetch (first seen). */
  publishedOn?: string | null;
}

export interface ApplyResult {
  inserted: number;
  revised: number;
  unchanged: number;
}

/**
 * Writes a fetch's figures: a new period is inserted, a changed value replaces the old one with
 * the old one kept in official_revisions, an unchanged one is left as it is (its first
 * publication date stays). A period absent from the answer is left alone: a gap stays a gap.
 * One transaction.
 */
export async function applyObservations(
  sql: Sql,
  source: OfficialSource,
  fetchId: number,
  fetchedAt: Date,
  observations: ObservationInput[],
): Promise<ApplyResult> {
  const result: ApplyResult = { inserted: 0, revised: 0, unchanged: 0 };
  if (observations.length === 0) return result;
  const today = fetchedAt.toISOString().slice(0, 10);
  // (one figure per series and period: a repeated one counts once, its last spelling kept)
  const unique = [...new Map(observations.map((o) => [`${o.seriesId}|${o.period}`, o])).values()];
  await sql.begin(async (tx) => {
    const rows = unique.map((o) => ({
      series_id: o.seriesId,
      period: o.period,
      value: o.value,
      value_text: o.valueText,
      unit: o.unit,
      detail: o.detail ?? null,
      published_on: o.publishedOn === undefined ? today : o.publishedOn,
    }));
    const json = JSON.stringify(rows);
    const revised = await tx<Array<{ n: number }>>`
      with incoming as (
        select * from jsonb_to_recordset(${json}::text::jsonb)
          as x(series_id text, period date, value numeric, value_text text, unit text, detail jsonb, published_on date)
      ),
      changed as (
        select o.series_id, o.period, o.value, o.value_text, o.published_on, o.fetched_at,
               i.value as new_value, i.value_text as new_value_text
        from official_observations o join incoming i using (series_id, period)
        where o.value <> i.value
      )
      insert into official_revisions (series_id, period, old_value, old_value_text, old_published_on, old_fetched_at,
                                      new_value, new_value_text, revised_at, fetch_id)
      select series_id, period, value, value_text, published_on, fetched_at, new_value, new_value_text,
             ${fetchedAt}, ${fetchId}
      from changed
      returning 1 as n`;
    const written = await tx<Array<{ inserted: boolean }>>`
      with incoming as (
        select * from jsonb_to_recordset(${json}::text::jsonb)
          as x(series_id text, period date, value numeric, value_text text, unit text, detail jsonb, published_on date)
      )
      insert into official_observations as o (source, series_id, period, value, value_text, unit, detail, published_on, fetched_at, fetch_id)
      select ${source}, series_id, period, value, value_text, unit, detail, published_on, ${fetchedAt}, ${fetchId}
      from incoming
      on conflict (series_id, period) do update
        set value = excluded.value, value_text = excluded.value_text, unit = excluded.unit,
            detail = excluded.detail, published_on = excluded.published_on,
            fetched_at = excluded.fetched_at, fetch_id = excluded.fetch_id
        where o.value <> excluded.value
           or o.detail is distinct from excluded.detail
      returning (xmax = 0) as inserted`;
    result.revised = revised.length;
    result.inserted = written.filter((w) => w.inserted).length;
    result.unchanged = unique.length - result.inserted - result.revised;
  });
  return result;
}

/**
 * Counts one request against the source's daily limit (UTC days); false (and nothing counted)
 * when the day's limit is reached.
 */
export async function takeRequest(sql: Db, source: OfficialSource, dailyLimit: number): Promise<boolean> {
  const rows = await sql`
    update official_sources
    set requests_count = case when requests_day = current_date then requests_count + 1 else 1 end,
        requests_day = current_date
    where source = ${source}
      and (requests_day is distinct from current_date or requests_count < ${dailyLimit})
    returning 1`;
  return rows.length > 0;
}

/** A fetch whose answer was read: the error is cleared, the newest period recomputed. */
export async function markFetched(sql: Db, source: OfficialSource, at: Date, nextDueAt: Date): Promise<void> {
  await sql`
    update official_sources s
    set last_fetched_at = ${at}, last_attempt_at = ${at}, last_error = null, failing_since = null,
        next_due_at = ${nextDueAt}, not_before = null,
        last_period = latest.period, last_published_on = latest.published_on
    from (select max(period) as period,
                 (array_agg(published_on order by period desc, published_on desc))[1] as published_on
          from official_observations where source = ${source}) latest
    where s.source = ${source}`;
  await sql`select pg_notify('eggwatch_official', ${source})`;
}

/**
 * A failed fetch: the error kept, and since when the source has been failing. `notBefore`: the
 * source said when to come back (a limit reached, Retry-After), so nothing asks it before then.
 */
export async function markFailed(
  sql: Db,
  source: OfficialSource,
  at: Date,
  message: string,
  nextDueAt: Date,
  notBefore: Date | null = null,
): Promise<void> {
  await sql`
    update official_sources
    set last_attempt_at = ${at}, last_error = ${message.slice(0, 2000)},
        failing_since = coalesce(failing_since, ${at}), next_due_at = ${nextDueAt},
        not_before = coalesce(${notBefore}::timestamptz, not_before)
    where source = ${source}`;
  await sql`select pg_notify('eggwatch_official', ${source})`;
}

export interface OfficialSourceRow {
  source: OfficialSource;
  last_period: string | null;
  last_published_on: string | null;
  last_fetched_at: Date | null;
  last_attempt_at: Date | null;
  last_error: string | null;
  failing_since: Date | null;
  next_due_at: Date | null;
  not_before: Date | null;
  requests_today: number;
}

export async function officialSourceRows(sql: Db): Promise<OfficialSourceRow[]> {
  return sql<OfficialSourceRow[]>`
    select source, to_char(last_period, 'YYYY-MM-DD') as last_period,
           to_char(last_published_on, 'YYYY-MM-DD') as last_published_on,
           last_fetched_at, last_attempt_at, last_error, failing_since, next_due_at, not_before,
           case when requests_day = current_date then requests_count else 0 end as requests_today
    from official_sources order by source`;
}

export interface OfficialPoint {
  period: string;
  value: number;
  value_text: string;
  unit: string;
  published_on: string | null;
  fetched_at: Date;
  detail: Record<string, unknown> | null;
  revisions: Array<{ value: number; value_text: string; published_on: string | null; replaced_at: string }>;
}

/** A series' points, oldest first, within [from, to] (YYYY-MM-DD, both optional), with revisions. */
export async function officialPoints(
  sql: Db,
  seriesId: string,
  range: { from?: string | undefined; to?: string | undefined } = {},
): Promise<OfficialPoint[]> {
  return sql<OfficialPoint[]>`
    select to_char(o.period, 'YYYY-MM-DD') as period, o.value, o.value_text, o.unit,
           to_char(o.published_on, 'YYYY-MM-DD') as published_on, o.fetched_at, o.detail,
           coalesce((select json_agg(json_build_object(
                        'value', r.old_value, 'value_text', r.old_value_text,
                        'published_on', to_char(r.old_published_on, 'YYYY-MM-DD'),
                        'replaced_at', to_char(r.revised_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
                      order by r.id)
                     from official_revisions r where r.series_id = o.series_id and r.period = o.period), '[]'::json)
             as revisions
    from official_observations o
    where o.series_id = ${seriesId}
      ${range.from ? sql`and o.period >= ${range.from}::date` : sql``}
      ${range.to ? sql`and o.period <= ${range.to}::date` : sql``}
    order by o.period`;
}

/** Queues a source's fetch (one job per source at a time: a second request joins the first). */
export async function queueOfficialFetch(sql: Db, source: OfficialSource): Promise<void> {
  await sql`
    select graphile_worker.add_job('official__fetch', json_build_object('source', ${source}::text),
                                   job_key := ${`official__fetch:${source}`}, max_attempts := 1)`;
}

/** The sources due a fetch (never fetched, or next_due_at passed) and not held back by not_before. */
export async function dueOfficialSources(sql: Db): Promise<string[]> {
  const due = await sql<Array<{ source: string }>>`
      select source from official_sources
      where (next_due_at is null or next_due_at <= now()) and (not_before is null or not_before <= now())
      order by source`;
  return due.map((d) => d.source);
}

export interface DetectionsByStateRow {
  state: string;
  /** Layer hens affected, summed over the weeks from `from` on. */
  birds: number;
  /** Confirmed detections (flocks), where APHIS's rows gave them. */
  detections: number;
  /** Weeks (from Monday) with a detection. */
  weeks: number;
  /** The latest such week's Monday, YYYY-MM-DD. */
  latest_week: string;
}

/**
 * APHIS's detections in commercial table-egg layer flocks by state (the `aphis-layers:<state>`
 * series, the national total left out) from a week on: the states with any, most hens first.
 */
export async function detectionsByState(sql: Db, from: string): Promise<DetectionsByStateRow[]> {
  return sql<DetectionsByStateRow[]>`
    select substr(series_id, length('aphis-layers:') + 1) as state,
           sum(value)::float8 as birds,
           coalesce(sum(case when jsonb_typeof(detail -> 'detections') = 'number'
                             then (detail ->> 'detections')::numeric end), 0)::int as detections,
           count(*)::int as weeks,
           to_char(max(period), 'YYYY-MM-DD') as latest_week
    from official_observations
    where source = 'aphis_hpai' and series_id like 'aphis-layers:%' and series_id <> 'aphis-layers:US'
      and period >= ${from}::date and value > 0
    group by series_id
    order by birds desc, state`;
}

/** Whether any figure of the source is held (a source holding none is asked for its history). */
export async function sourceHoldsFigures(sql: Db, source: OfficialSource): Promise<boolean> {
  const [row] = await sql<Array<{ any: boolean }>>`
    select exists (select 1 from official_observations where source = ${source}) as any`;
  return row?.any ?? false;
}

/**
 * The benchmark months held of the series, by `series|YYYY-MM-DD`, each with whether an official
 * figure of it was read already (published on a known day, or an official observation).
 */
export async function heldBenchmarkMonths(
  sql: Db,
  seriesIds: readonly string[],
): Promise<Array<{ key: string; official: boolean }>> {
  return sql<Array<{ key: string; official: boolean }>>`
    select series_id || '|' || to_char(period, 'YYYY-MM-DD') as key, published_on is not null or exists (
             select 1 from official_observations o where o.series_id = b.series_id and o.period = b.period) as official
    from benchmark_prices b where series_id = any(${sql.array([...seriesIds])}::text[])`;
}
