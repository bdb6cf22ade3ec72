// What `npm start` and `npm run dev` share: provide the database (embedded unless DATABASE_URL
// is set), migrate and seed it, keep the client build current, and run child processes with
// prefixed output.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Env } from './env.ts';
import { openSql } from './db.ts';
import { ensureDatabase, startEmbeddedPostgres } from './embedded-db.ts';
import { migrate } from './migrate.ts';
import { isEmpty, seed } from './seed.ts';
import { refreshRollups } from './queries/rollups.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const log = (message: string) => console.log(`[eggwatch] ${message}`);

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function prepareDatabase(env: Env, options: { databaseName?: string } = {}): Promise<Database> {
  let url = env.DATABASE_URL;
  let stop = async () => {};
  if (!url) {
    const embedded = await startEmbeddedPostgres({ dir: path.resolve(ROOT, env.EMBEDDED_PG_DIR), log });
    const name = options.databaseName ?? 'eggwatch';
    await ensureDatabase(embedded.adminUrl, name);
    url = embedded.urlFor(name);
    stop = embedded.stop;
    log(`Embedded PostgreSQL is running (data in ${env.EMBEDDED_PG_DIR})`);
  }
  const sql = await openSql(url, { max: 2 });
  try {
    const { applied, placesFilled } = await migrate(sql, url);
    if (applied.length) log(`Applied ${applied.length} migration(s)`);
    if (placesFilled)
      log(`Filled in the coordinates, city or state of ${placesFilled} store location(s) from their ZIP codes`);
    if (await isEmpty(sql)) {
      const { observations } = await seed(sql);
      await refreshRollups(sql, { all: true });
      log(`Seeded an empty database: 6 stores, the BLS series and ${observations} sample prices`);
    }
  } catch (error) {
    await sql.end();
    await stop();
    throw error;
  }
  await sql.end();
  return { url, embedded: !env.DATABASE_URL, stop };
}

const CLIENT_INPUTS = [
  'index.html',
  'vite.config.ts',
  'package-lock.json',
  'public',
  'src/client',
  'src/shared',
  'scripts/compress-assets.ts',
  'scripts/route-chunks.ts',
];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce((max, name) => Math.max(max, newestMtime(path.join(target, name))), stat.mtimeMs);
}

/** Builds the client when dist/ is missing or older than any of its sources. */
export async function ensureClientBuild(): Promise<void> {
  const built = path.join(ROOT, 'dist', 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  const sourcesAt = Math.max(...CLIENT_INPUTS.map((p) => newestMtime(path.join(ROOT, p))));
  if (builtAt >= sourcesAt) return;
  log(builtAt ? 'The client build is stale; rebuilding' : 'Building the client');
  const { build } = await import('vite');
  await build({ root: ROOT, logLevel: 'warn', configFile: path.join(ROOT, 'vite.config.ts') });
}

/**
 * Node's flags for the web process: young-generation semi-spaces of up to 64 MB. With V8's default
 * (grown on demand to 16 MB) the short-lived objects of hundreds of requests in flight outlived
 * their scavenges and were promoted, and garbage collection took a large share of a cached read's
 * CPU under load (measured in docs/decisions/006-load.md). The space is reserved as needed, not up
 * front.
 */
export const WEB_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** Runs a TypeScript entry point with tsx (restarting on changes with watch; node flags apply without), output prefixed with its name. */
export function runChild(
  name: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  options: { watch?: boolean; nodeFlags?: readonly string[] } = {},
): ChildProcess {
  const args = options.watch
    ? [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', entry]
    : [...(options.nodeFlags ?? []), '--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  return child;
}

export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The process serving ${url} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/**
 * Stops the children (SIGTERM, then SIGKILL after a grace period) and the embedded database,
 * once, on Ctrl-C, SIGTERM or when any child exits on its own.
 */
export function superviseChildren(children: ChildProcess[], database: Database): void {
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await database.stop();
    log('Stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  for (const child of children) {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log(`A child process exited (${signal ?? `code ${code}`}); stopping`);
      void stopAll(code || 1);
    });
  }
}
