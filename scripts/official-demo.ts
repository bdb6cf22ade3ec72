// The demo's official sources: every source fetched from its stand-in as the demo starts, then
// BLS's newest month (held back by the stand-in) released and fetched, so the benchmark is seen
// moving to a new month with its release day. Prints what each step read.
import postgres from 'postgres';
import type { StandInWorld } from '../test/official/standin.ts';
import { benchmarkProvenance, monthName, OFFICIAL_SOURCES } from '#shared/official.ts';

const log = (line: string) => console.log(`[eggwatch] Demo: ${line}`);
const NATIONAL = 'APU0000708111';

export async function runOfficialDemo(databaseUrl: string, world: StandInWorld, pageUrl: string): Promise<void> {
  const national = world.bls.values.get(NATIONAL)!;
  const newest = [...national.keys()].sort().at(-1)!;
  const held = national.get(newest)!;
  national.delete(newest);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const queue = async (source: string) =>
    sql`select graphile_worker.add_job('official__fetch', json_build_object('source', ${source}::text),
                                       job_key := ${`official__fetch:${source}`}, max_attempts := 1)`;
  const waitFor = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 600 && !(await check()); i += 1) await new Promise((r) => setTimeout(r, 500));
  };
  const latest = async () => {
    const [row] = await sql<Array<{ period: string; published_on: string | null }>>`
      select to_char(period, 'YYYY-MM') as period, to_char(published_on, 'YYYY-MM-DD') as published_on
      from benchmark_prices where series_id = ${NATIONAL} order by period desc limit 1`;
    return row ? { period: row.period, publishedOn: row.published_on } : null;
  };
  try {
    // (the demo's own database starts as if BLS had not published that month yet: its seed row goes)
    await sql`delete from market_prices where series_id = ${NATIONAL} and period = ${`${newest}-01`}::date
              and not exists (select 1 from official_observations where series_id = ${NATIONAL})`;
    const since = new Date();
    for (const source of OFFICIAL_SOURCES) await queue(source);
    await waitFor(async () => {
      const rows = await sql`select 1 from official_sources where last_attempt_at >= ${since}`;
      return rows.length === OFFICIAL_SOURCES.length;
    });
    const statuses = await sql<Array<{ source: string; last_error: string | null }>>`
      select source, last_error from official_sources order by source`;
    log(
      `official sources fetched from their stand-in: ${statuses.map((s) => `${s.source} ${s.last_error ? `failing (${s.last_error})` : 'ok'}`).join(', ')}`,
    );
    log(`benchmark now: ${benchmarkProvenance(await latest())}`);
    const wait = Number(process.env.DEMO_BLS_RELEASE_SECONDS ?? 60);
    log(`the BLS stand-in releases ${monthName(newest)} in ${wait} s; the page to watch: ${pageUrl}`);
    await new Promise((r) => setTimeout(r, wait * 1000));
    national.set(newest, held);
    const released = new Date();
    await sql`update official_sources set next_due_at = now(), not_before = null where source = 'bls'`;
    await queue('bls');
    await waitFor(
      async () =>
        (await sql`select 1 from official_sources where source = 'bls' and last_attempt_at >= ${released}`).length > 0,
    );
    log(`BLS released ${monthName(newest)} (${held} a dozen); benchmark now: ${benchmarkProvenance(await latest())}`);
  } catch (error) {
    log(`the official sources' demonstration stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await sql.end();
  }
}
