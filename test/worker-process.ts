// Real worker processes for the fault tests (worker/*.fault.test.ts): `worker/index.ts` started
// as production starts it, on a test database, with its output kept for the test to read, and
// stopped with SIGKILL by `killWorkerProcesses` if a test leaves one running.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the process has written to stdout and stderr so far. */
  log: () => string;
}

/**
 * Starts a worker process on `databaseUrl` (NODE_ENV=test), with `env` added to this process's
 * environment; `started` collects it for `killWorkerProcesses`.
 */
export function startWorkerProcess(
  databaseUrl: string,
  env: Record<string, string>,
  started: ChildProcess[],
): WorkerProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/index.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.push(child);
  return { child, log: () => output };
}

/** Resolves with how the process ended (at once if it already has). */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** SIGKILL for every process of `started` still running (a test's afterAll). */
export function killWorkerProcesses(started: ChildProcess[]): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
