// Headers and secrets: every kind of answer (the app's HTML, the REST and tRPC APIs, the API
// reference, the health checks) carries a strict Content-Security-Policy without inline scripts,
// frame-ancestors 'none', nosniff and a Referrer-Policy, and HSTS in production; and no password,
// session token, reset or confirmation token or setup key reaches a log line or an error answer,
// even when a statement that carries one fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { linkToken, newestEmail } from '../../test/users.ts';
import { createServer } from './app.ts';
import { sendEmail } from '../../worker/tasks/send_email.ts';

const SETUP_KEY = 'setup-key-under-test-7f3a9c';
let db: TestDatabase;
let dist: string;
const logLines: string[] = [];
const servers: Array<ReturnType<typeof createServer>> = [];

async function start(options: { secureCookies: boolean }): Promise<string> {
  const server = createServer({
    sql: db.sql,
    port: 0,
    logLevel: 'debug',
    logStream: { write: (line: string) => void logLines.push(line) },
    distDir: dist,
    auth: {
      publicUrl: 'http://eggwatch.test',
      adminSetupKey: SETUP_KEY,
      exposeResetToken: true,
      secureCookies: options.secureCookies,
    },
  });
  servers.push(server);
  return server.start();
}

let base: string;
let productionBase: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-dist-'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>EggWatch</title></head><body><div id="root"></div></body></html>',
  );
  db = await createTestDatabase({ seeded: false });
  base = await start({ secureCookies: false });
  productionBase = await start({ secureCookies: true });
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await db.drop();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

const ANSWERS: Array<[string, string]> = [
  ['the app page', '/'],
  ['a client route', '/compare/organic'],
  ['a REST read', '/api/stores'],
  ['a REST error', '/api/egg-prices?limit=-1'],
  ['a tRPC read', '/trpc/stores.list'],
  ['the API reference', '/api/docs/'],
  ['the health check', '/healthz'],
];

describe('security headers', () => {
  for (const [name, pathname] of ANSWERS) {
    it(`${name} (${pathname}) carries a strict policy`, async () => {
      const response = await fetch(`${base}${pathname}`);
      const csp = directives(response.headers.get('content-security-policy') ?? '');
      expect(csp.get('default-src')).toEqual(["'self'"]);
      const scripts = csp.get('script-src') ?? csp.get('default-src')!;
      expect(scripts).toEqual(["'self'"]);
      expect(scripts.join(' ')).not.toMatch(/unsafe-inline|unsafe-eval|\*|data:|http:|https:/);
      expect(csp.get('script-src-attr') ?? ["'none'"]).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      // Images (store logos included) come from the site itself: no third party learns what
      // shoppers look at, and nothing fails offline.
      expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
      for (const directive of ['connect-src', 'font-src', 'style-src']) {
        expect(csp.get(directive)?.join(' '), directive).not.toMatch(/https?:|\*/);
      }
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      // Plain HTTP (development): HSTS would mean nothing and is not sent.
      expect(response.headers.get('strict-transport-security')).toBeNull();
      await response.arrayBuffer();
    });
  }

  it('in production (HTTPS, Secure cookies) every answer asks browsers for HTTPS for a year', async () => {
    for (const [, pathname] of ANSWERS) {
      const response = await fetch(`${productionBase}${pathname}`);
      await response.arrayBuffer();
      const hsts = response.headers.get('strict-transport-security') ?? '';
      expect(hsts, pathname).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(hsts)![1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
    }
  });
});

describe('secrets stay out of logs and error answers', () => {
  it('passwords, tokens and the setup key appear in no log line, and in no answer but the one that issues them', async () => {
    const secrets = new Map<string, string>();
    const answers: string[] = [];
    const call = async (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${pathname}`, {
        method,
        headers: {
          origin: 'http://eggwatch.test',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        text,
        json: text ? (JSON.parse(text) as Record<string, unknown>) : null,
        cookie: response.headers.get('set-cookie'),
      };
    };
    const refused = async (...args: Parameters<typeof call>) => {
      const result = await call(...args);
      answers.push(result.text);
      return result;
    };

    const email = `keeper-${Date.now()}@example.test`;
    const password = 'first-secret-passphrase';
    secrets.set('password', password);
    expect(
      (await call('POST', '/api/auth/register', { username: `keeper${Date.now()}`, email, password })).status,
    ).toBe(201);
    const verification = linkToken((await newestEmail(db.sql, email))!.text);
    secrets.set('verification token', verification);

    secrets.set('wrong password', 'wrong-secret-passphrase');
    expect((await refused('POST', '/api/auth/login', { email, password: 'wrong-secret-passphrase' })).status).toBe(401);
    const login = await call('POST', '/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    const token = String(login.json!.token);
    secrets.set('session token', token);
    expect(login.cookie).toContain(token);

    expect((await refused('POST', '/api/auth/verify-email', { token: `${verification}x` })).status).toBe(400);
    expect((await call('POST', '/api/auth/verify-email', { token: verification })).status).toBe(200);
    expect((await refused('POST', '/api/auth/verify-email', { token: verification })).status).toBe(400);

    secrets.set('new password', 'second-secret-passphrase');
    const changed = await refused(
      'POST',
      '/api/auth/change-password',
      { current_password: 'wrong-secret-passphrase', new_password: 'second-secret-passphrase' },
      { authorization: `Bearer ${token}` },
    );
    expect(changed.status).toBe(400);

    const reset = await call('POST', '/api/auth/request-reset', { email });
    const resetToken = String(reset.json!.resetToken);
    secrets.set('reset token', resetToken);
    expect(
      (
        await refused('POST', '/api/auth/reset-password', {
          token: `${resetToken}x`,
          newPassword: 'second-secret-passphrase',
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', '/api/auth/reset-password', { token: resetToken, newPassword: 'second-secret-passphrase' }))
        .status,
    ).toBe(200);
    // Every session ended with the reset: the old token is refused, as a Bearer and as a cookie.
    expect((await refused('GET', '/api/auth/verify', undefined, { authorization: `Bearer ${token}` })).status).toBe(
      401,
    );
    expect((await refused('GET', '/api/auth/verify', undefined, { cookie: `auth_session=${token}` })).status).toBe(401);

    secrets.set('setup key', SETUP_KEY);
    secrets.set('admin password', 'Admin-secret-passphrase-9');
    const wrongKey = await refused('POST', '/api/admin/setup', {
      username: 'rootadmin',
      email: 'root@example.test',
      password: 'Admin-secret-passphrase-9',
      setupKey: `${SETUP_KEY}-not`,
    });
    expect(wrongKey.status, wrongKey.text).toBeGreaterThanOrEqual(400);
    expect(wrongKey.status).toBeLessThan(500);
    const setup = await call('POST', '/api/admin/setup', {
      username: 'rootadmin',
      email: 'root@example.test',
      password: 'Admin-secret-passphrase-9',
      setupKey: SETUP_KEY,
    });
    expect(setup.status, setup.text).toBe(201);

    const subscribed = await call('POST', '/api/subscribers', { email: `alerts-${email}`, region: 'west' });
    expect(subscribed.status).toBe(201);
    const confirmation = linkToken((await newestEmail(db.sql, `alerts-${email}`))!.text);
    secrets.set('confirmation token', confirmation);
    expect((await refused('POST', '/api/subscribers/confirm', { token: `${confirmation}x` })).status).toBe(404);

    // A statement that fails while it carries a session id: the session table is away for a moment.
    const second = await call('POST', '/api/auth/login', { email, password: 'second-secret-passphrase' });
    const secondToken = String(second.json!.token);
    secrets.set('second session token', secondToken);
    await db.sql`alter table user_sessions rename to user_sessions_away`;
    try {
      const failed = await refused('GET', '/api/auth/verify', undefined, { authorization: `Bearer ${secondToken}` });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const loginFailed = await refused('POST', '/api/auth/login', { email, password: 'second-secret-passphrase' });
      expect(loginFailed.status).toBeGreaterThanOrEqual(500);
    } finally {
      await db.sql`alter table user_sessions_away rename to user_sessions`;
    }
    // The failure was logged (without the values bound to the statement: checked below).
    const errorLines = logLines.filter((line) => /"level":50/.test(line));
    expect(errorLines.join('\n')).toContain('relation \\"user_sessions\\" does not exist');

    // The worker's email task logs the email it kept, not its content.
    const workerLines: string[] = [];
    const [pending] = await db.sql<
      { id: number }[]
    >`select id from email_outbox where status = 'pending' order by id desc limit 1`;
    if (pending) {
      const task = sendEmail({ sql: db.sql, email: { from: 'EggWatch <test@eggwatch.test>' } } as Parameters<
        typeof sendEmail
      >[0]);
      await task({ id: pending.id }, {
        logger: { info: (line: string) => workerLines.push(line) },
        job: { attempts: 1, max_attempts: 5 },
      } as unknown as Parameters<ReturnType<typeof sendEmail>>[1]);
      expect(workerLines.length).toBe(1);
    }

    const logged = [...logLines, ...workerLines].join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    for (const [name, value] of secrets) {
      expect(logged.includes(value), `${name} in a log line`).toBe(false);
      for (const answer of answers) expect(answer.includes(value), `${name} in the error answer ${answer}`).toBe(false);
    }
  });
});
