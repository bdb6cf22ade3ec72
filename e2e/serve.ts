// The app as the browser tests see it: a fresh database (on TEST_DATABASE_URL's server, or an
// embedded cluster under .data/e2e-postgres-<port>), migrated and seeded, the production client
// build, the web process and the worker, in this one process. Runs on different ports never share
// a database or a cluster. Stops cleanly on SIGTERM/SIGINT.
import fs from 'node:fs';
import postgres from 'postgres';
import { Logger, run } from 'graphile-worker';
import { env } from '#server/env.ts';
import { openSql } from '#server/db.ts';
import { createServer } from '#server/app.ts';
import { startEmbeddedPostgres } from '#server/embedded-db.ts';
import { ensureClientBuild, prepareDatabase } from '#server/launcher.ts';
import { CRONTAB, taskList } from '../worker/tasks.ts';
import { workerLiveness } from '../worker/liveness.ts';
import { databaseUrl } from '../test/urls.ts';
import { waitForMidnightIfClose } from '../test/midnight.ts';
import { E2E_MIDNIGHT_GUARD_MINUTES } from './midnight.ts';
import { startStandIn } from '../test/retailers/server.ts';
import { parseEgressSettings } from '#shared/egress.ts';
import { EGRESS_ADDRESSES, egressAddressesWork, startProxy } from '../test/egress/proxies.ts';
import { E2E_KROGER_SECRET, E2E_PROXY_PASSWORD, E2E_PROXY_USER, E2E_SETUP_KEY, serverLogFile } from './secrets.ts';

const port = Number(process.env.E2E_PORT ?? 4310);
// The seeded prices end today: a run this close to a UTC midnight first waits for the new day
// (playwright.config.ts gives the server's start that much longer).
await waitForMidnightIfClose(E2E_MIDNIGHT_GUARD_MINUTES, (line) => console.error(`[e2e] ${line}`));
/** The worker's politeness delay against the stand-in (ms). */
const SCRAPE_DELAY_MS = 150;
const name = `eggwatch_e2e_${port}`;

let serverUrl = process.env.TEST_DATABASE_URL;
let stopEmbedded = async () => {};
if (!serverUrl) {
  const embedded = await startEmbeddedPostgres({ dir: `.data/e2e-postgres-${port}` });
  serverUrl = embedded.adminUrl;
  stopEmbedded = embedded.stop;
}
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists "${name}" with (force)`);
await admin.unsafe(`create database "${name}"`);
await admin.end();

const url = databaseUrl(serverUrl, name);
// The journeys read emails and prepare accounts through this database (e2e/db.ts).
fs.mkdirSync('.data', { recursive: true });
fs.writeFileSync(`.data/e2e-db-url-${port}`, url, { mode: 0o600 });
await prepareDatabase({ ...env, DATABASE_URL: url });
await ensureClientBuild();

const sql = await openSql(url, { max: 10 });
// Both processes log at the production level into one file, which the run's teardown searches
// for secrets (e2e/secrets.ts).
const logStream = fs.createWriteStream(serverLogFile(port), { flags: 'w', mode: 0o600 });
const workerLogger = new Logger((scope) => (level, message, meta) => {
  if (level !== 'debug') logStream.write(`${JSON.stringify({ process: 'worker', level, scope, message, meta })}\n`);
});
// Target walls this machine's address, as the real sites wall datacenter addresses; its requests
// go on through a local proxy with a user and password (the egress journey tests the connection).
// A walled proxy is used again at once (a journey's blocked ZIP must not rest the only proxy).
const proxy = await startProxy({
  username: E2E_PROXY_USER,
  password: E2E_PROXY_PASSWORD,
  egressAddress: EGRESS_ADDRESSES.residential,
});
const egressVars: Record<string, string> = (await egressAddressesWork())
  ? { SCRAPER_PROXY_TIERS_TARGET: `direct; residential=${proxy.url}`, SCRAPER_PROXY_REST_MINUTES: '0' }
  : {};
const egress = parseEgressSettings(egressVars).settings!;
// Demonstration mode: the admin reset screen shows the token the server returns.
const server = createServer({
  sql,
  port,
  host: '127.0.0.1',
  logLevel: 'info',
  logStream,
  // Three screen sizes log in from one IP: give the rate limits room (they are tested in vitest).
  auth: {
    publicUrl: `http://127.0.0.1:${port}`,
    adminSetupKey: E2E_SETUP_KEY,
    exposeResetToken: true,
    rateLimitScale: 20,
  },
  // The worker's delay below, so the Coverage tab's plan costs are the worker's.
  scrapeDelayMs: SCRAPE_DELAY_MS,
  egress,
});
// Scrapers run against the retailer stand-in (no test reaches a retailer); each page of its slow
// ZIP (83201) answers after 2.5 s, so the journeys can watch a run's progress and be refused a
// second start: a run over it lasts several of those pages, longer than the 2 s the dashboard
// waits between two looks at a running scraper (ACTIVE_POLL_MS).
const standIn = await startStandIn({
  port: port + 1,
  slowMs: 2500,
  walls: egressVars.SCRAPER_PROXY_TIERS_TARGET ? { target: [EGRESS_ADDRESSES.direct] } : {},
});
const origins = {
  walmart: standIn.url,
  target: standIn.url,
  kroger: standIn.url,
  albertsons: standIn.url,
  'whole-foods': standIn.url,
  aldi: standIn.url,
};
const liveness = workerLiveness(sql, 10_000);
const worker = await run({
  events: liveness.events,
  connectionString: url,
  concurrency: 2,
  taskList: taskList({
    sql,
    email: { from: 'EggWatch <e2e@eggwatch.local>' },
    scrape: {
      origins,
      credentials: { krogerClientId: 'e2e-client', krogerClientSecret: E2E_KROGER_SECRET },
      egress,
      http: {
        delayMs: SCRAPE_DELAY_MS,
        retries: 2,
        timeoutMs: 15_000,
        backoffBaseMs: 50,
        backoffCapMs: 200,
        maxRetryAfterMs: 2000,
      },
    },
  }),
  crontab: CRONTAB,
  logger: workerLogger,
  noHandleSignals: true,
});
await server.start();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.stop();
  await worker.stop();
  await liveness.stop();
  await standIn.close();
  await proxy.close();
  await sql.end({ timeout: 5 });
  logStream.end();
  await stopEmbedded();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
