// The app in a process of its own for the front-end benchmarks: a tsx script (e2e/serve.ts, or
// `npm start`'s launcher) started on a port, waited for until /api/stores answers, and stopped
// with SIGTERM (SIGKILL after 30 s), which each of those scripts passes on to the web process,
// the worker and the embedded database.
import { spawn } from 'node:child_process';

export interface AppProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startAppProcess(
  root: string,
  script: string,
  port: number,
  env: Record<string, string>,
  timeoutMs = 240_000,
): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with code ${child.exitCode}\n${output.join('')}`);
    if (
      await fetch(`${baseUrl}/api/stores`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { baseUrl, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${baseUrl} did not answer within ${timeoutMs / 1000} s\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
