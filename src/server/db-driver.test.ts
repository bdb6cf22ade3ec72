// The database driver (postgres.js 3.4.9, patched in patches/) when a server closes a connection
// that still has a small write buffered: the write fails the queries waiting on it with
// CONNECTION_CLOSED, which callers turn into a retry or a 503, instead of throwing from a timer
// and taking the whole process down (an uncatchable TypeError on a null socket, unpatched).
// Run in a child process, since the failure it guards against ends the process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(async () => {
  await db.drop();
});

const SCRIPT = `
import postgres from 'postgres';
// As the worker does (worker/index.ts): a lost connection's late rejections that no query awaits
// are part of the loss; any other unhandled rejection ends the process.
process.on('unhandledRejection', (reason) => {
  if (/^(CONNECTION_CLOSED|ECONNRESET|EPIPE|57P01)$/.test(String(reason?.code))) return;
  console.log('unhandled', reason);
  process.exit(1);
});
const sql = postgres(process.env.URL, { max: 4, onnotice: () => {} });
const admin = postgres(process.env.URL, { max: 1, onnotice: () => {} });
const outcome = (promise) => promise.then(() => 'answered', (error) => 'rejected ' + error.code);
// A connection held for a transaction-like sequence whose server process is ended under it.
const reserved = await sql.reserve();
const [{ pid }] = await reserved\`select pg_backend_pid() as pid\`;
await admin\`select pg_terminate_backend(\${pid})\`;
await new Promise((resolve) => setTimeout(resolve, 300));
console.log('reserved', await outcome(reserved\`select 1\`), await outcome(reserved\`select 2\`));
// Pooled connections cut again and again while small queries run.
const cuts = (async () => {
  for (let i = 0; i < 10; i++) {
    await admin\`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()\`;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
const results = [];
for (let i = 0; i < 200; i++) results.push(outcome(sql\`select \${i}::int as n\`));
await cuts;
const settled = await Promise.all(results);
console.log('pooled', settled.every((r) => /^(answered|rejected (CONNECTION_CLOSED|EPIPE|ECONNRESET|57P01))$/.test(r)) ? 'settled' : settled.find((r) => !r.startsWith('answered')));
const [{ n }] = await postgres(process.env.URL, { max: 1 })\`select 7::int as n\`;
console.log('after', n);
process.exit(0);
`;

describe('postgres.js when the server closes a connection with a write buffered', () => {
  it('rejects the waiting queries with CONNECTION_CLOSED and the process lives on', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      env: { ...process.env, URL: db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output).not.toMatch(/reading 'write'/);
    expect(code, output).toBe(0);
    expect(output).toContain('reserved rejected CONNECTION_CLOSED rejected CONNECTION_CLOSED');
    expect(output).toContain('pooled settled');
    expect(output).toContain('after 7');
  }, 60_000);
});
