// After the journeys: stop the embedded PostgreSQL that e2e/serve.ts started. Playwright ends the
// web server process with a kill that leaves the database (a process of its own) running, so
// every run, passed or failed, stops it here with a fast shutdown and waits for it to exit.
import fs from 'node:fs';
import { findLoggedSecrets } from './secrets.ts';

export default async function globalTeardown(): Promise<void> {
  const port = process.env.E2E_PORT ?? '4310';
  let leaks: string[];
  try {
    const found = await findLoggedSecrets(port);
    leaks = found.leaks;
    console.log(
      `[e2e] searched ${found.lines} log lines of the web process and the worker for secrets: ${leaks.length ? `${leaks.length} found` : 'none found'}`,
    );
  } finally {
    await stopDatabase(port);
  }
  if (leaks.length)
    throw new Error(`Secrets in the e2e server log (.data/e2e-server-${port}.log):\n${leaks.slice(0, 50).join('\n')}`);
}

async function stopDatabase(port: string): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return; // an external server is not ours to stop
  const pidFile = `.data/e2e-postgres-${port}/postmaster.pid`;
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  // A stale pid file (a crashed run) may name a process that is no longer PostgreSQL.
  const command = fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') : 'postgres';
  if (!command.includes('postgres')) return;
  // SIGINT is PostgreSQL's fast shutdown: it ends the sessions and stops cleanly.
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) console.warn(`[e2e] the embedded PostgreSQL (pid ${pid}) did not stop within 30 s`);
}
