// After the journeys: no secret the run handled may appear in the log of the web process and the
// worker (e2e/serve.ts writes both, at the production level, to .data/e2e-server-<port>.log).
// The secrets are the ones the run really used: every password the journeys type or create
// (read from their source), the session tokens and the raw tokens of every email link (read from
// the run's database), the setup key and the retailer API secret. Besides, no line may carry a
// password field, a Bearer token or a session cookie at all.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

export const E2E_SETUP_KEY = process.env.ADMIN_SETUP_KEY ?? 'e2e-admin-setup-key';
export const E2E_KROGER_SECRET = 'e2e-secret';
/** The local proxy's user and password that Target's requests go through (e2e/serve.ts). */
export const E2E_PROXY_USER = 'e2e-proxy-account';
export const E2E_PROXY_PASSWORD = 'e2e-Pr0xy-secret';

export const serverLogFile = (port: string | number) => `.data/e2e-server-${port}.log`;

/** String literals on the journeys' lines about passwords: the passwords they type or create. */
function journeyPasswords(dir: string): string[] {
  const found = new Set<string>();
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!/password/i.test(line)) continue;
      // `password: '...'`, `password = '...'` and `.fill('...')` into a password field.
      for (const [, assigned, filled] of line.matchAll(/password\s*[:=]\s*'([^']+)'|\.fill\('([^']+)'\)/gi)) {
        const value = assigned ?? filled;
        // (a plain word, like a deliberately mismatched confirmation, could be any log text)
        if (value && value.length >= 6 && /[^A-Za-z]/.test(value)) found.add(value);
      }
    }
  }
  return [...found];
}

const FORBIDDEN_SHAPES: Array<[string, RegExp]> = [
  ['a password field', /"(?:password|current_password|new_password|newPassword|confirmPassword)"\s*:\s*"/i],
  ['a Bearer token', /bearer\s+[a-z0-9_-]{16,}/i],
  ['a session cookie', /auth_session=[a-z0-9]{16,}/i],
  ['a token parameter', /[?&]token=[A-Za-z0-9_%-]{16,}/],
];

/** The leaks found: what leaked and on which log line (never the secret itself). */
export async function findLoggedSecrets(port: string | number): Promise<{ lines: number; leaks: string[] }> {
  const logFile = serverLogFile(port);
  if (!fs.existsSync(logFile)) return { lines: 0, leaks: [] };
  const lines = fs.readFileSync(logFile, 'utf8').split('\n');

  const secrets: Array<[string, string]> = [
    ['the setup key', E2E_SETUP_KEY],
    ['the retailer API secret', E2E_KROGER_SECRET],
    ['the proxy password', E2E_PROXY_PASSWORD],
    ['the proxy user', E2E_PROXY_USER],
    ...journeyPasswords(path.dirname(new URL(import.meta.url).pathname)).map((value): [string, string] => [
      'a password',
      value,
    ]),
  ];
  const urlFile = `.data/e2e-db-url-${port}`;
  if (fs.existsSync(urlFile)) {
    const sql = postgres(fs.readFileSync(urlFile, 'utf8').trim(), { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      for (const { id } of await sql<{ id: string }[]>`select id from user_sessions`)
        secrets.push(['a session token', id]);
      for (const { text } of await sql<{ text: string }[]>`select text from email_outbox`) {
        for (const [, token] of text.matchAll(/[?&]token=([A-Za-z0-9_%-]+)/g))
          secrets.push(['an email link token', decodeURIComponent(token!)]);
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  const leaks: string[] = [];
  lines.forEach((line, index) => {
    for (const [kind, value] of secrets) if (value && line.includes(value)) leaks.push(`${kind} on line ${index + 1}`);
    for (const [kind, shape] of FORBIDDEN_SHAPES) if (shape.test(line)) leaks.push(`${kind} on line ${index + 1}`);
  });
  return { lines: lines.length, leaks: [...new Set(leaks)] };
}
