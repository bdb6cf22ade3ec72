// The daily digest alone, phase by phase, for iterating on deliverDaily: a copy of the cached
// nationwide database (NATIONWIDE_LOCATIONS x NATIONWIDE_DAYS, built by `bench/run.ts nationwide`)
// with DIGEST_SUBSCRIPTIONS subscriptions, the digest of its last day run DIGEST_RUNS times (the
// outbox, deliveries, link tokens and jobs of a run emptied before the next).
//   DIGEST_SUBSCRIPTIONS=60000 BENCH_DATABASE_URL=... npx tsx bench/digest-profile.ts
import fs from 'node:fs';
import { openSql, type Sql } from '../src/server/db.ts';
import * as alerts from '../worker/alerts.ts';

// Absent from versions before the phase profile: then only the totals are printed.
const deliveryProfile: Record<string, number> =
  (alerts as { deliveryProfile?: Record<string, number> }).deliveryProfile ?? {};
const { deliverDaily } = alerts;
import { insertSubscriptions } from './alerts.ts';
import { copyBenchDatabase, dropBenchCopy } from './database.ts';
import { NATIONWIDE_DATABASE } from './nationwide-database.ts';

const adminUrl = process.env.BENCH_DATABASE_URL!;
const TICKS = 100; // clock ticks a second (Linux)

/** CPU seconds used so far by the database's server processes (this machine's server only), by pid. */
async function serverCpu(sql: Sql, database: string): Promise<Map<number, number>> {
  const pids = await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database}`;
  const cpu = new Map<number, number>();
  for (const { pid } of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // Not on this machine, or gone.
    }
  }
  return cpu;
}

const subscriptions = Number(process.env.DIGEST_SUBSCRIPTIONS ?? 60_000);
const runs = Number(process.env.DIGEST_RUNS ?? 2);
const name = `${NATIONWIDE_DATABASE}_digest`;
const url = await copyBenchDatabase(adminUrl, name, NATIONWIDE_DATABASE);
const sql = await openSql(url, { max: 4 });
try {
  await insertSubscriptions(sql, subscriptions);
  await sql`analyze subscriptions`;
  // DIGEST_OUTBOX_SQL: an experiment on email_outbox first, e.g. "alter table email_outbox alter column html set compression lz4".
  if (process.env.DIGEST_OUTBOX_SQL) await sql.unsafe(process.env.DIGEST_OUTBOX_SQL);
  const day = (await sql<{ day: string }[]>`select max(observed_on)::text as day from price_observations`)[0]!.day;
  for (let run = 1; run <= runs; run++) {
    await sql`truncate alert_deliveries, subscription_link_tokens`;
    await sql`delete from email_outbox`;
    await sql`delete from graphile_worker._private_jobs`.catch(() => sql`delete from graphile_worker.jobs`);
    await sql`vacuum analyze email_outbox`;
    for (const k of Object.keys(deliveryProfile)) delete deliveryProfile[k];
    const cpuBefore = await serverCpu(sql, name);
    const nodeBefore = process.cpuUsage();
    const started = performance.now();
    const report = await deliverDaily(sql, 'https://eggwatch.example', day);
    const ms = performance.now() - started;
    const node = process.cpuUsage(nodeBefore);
    const cpuAfter = await serverCpu(sql, name);
    let server = 0;
    for (const [pid, seconds] of cpuAfter) server += seconds - (cpuBefore.get(pid) ?? 0);
    const bytes = (await sql<{ bytes: string }[]>`select pg_total_relation_size('email_outbox')::text as bytes`)[0]!
      .bytes;
    console.log(
      `run ${run}: ${subscriptions} subscriptions, ${report.emails} emails in ${(ms / 1000).toFixed(1)} s; email_outbox ${(Number(bytes) / 1e6).toFixed(1)} MB; CPU: node ${((node.user + node.system) / 1e6).toFixed(1)} s, database ${server.toFixed(1)} s`,
    );
    console.log(
      '  phases (ms): ' +
        Object.entries(deliveryProfile)
          .map(([k, v]) => `${k} ${Math.round(v)}`)
          .join(', '),
    );
  }
} finally {
  await sql.end();
  if (!process.env.DIGEST_KEEP) await dropBenchCopy(adminUrl, name).catch(() => {});
}
