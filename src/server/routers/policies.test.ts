// The facts the Privacy Policy and Terms print about a deployment come from its configuration and
// the limits the server enforces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { buildApp } from '../app.ts';
import { LIMITS } from '../auth/rate-limit.ts';
import { transformer } from '#shared/transformer.ts';
import type { PolicySettings } from '#shared/privacy.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(() => db.drop());

async function settingsOf(options: Omit<Parameters<typeof buildApp>[0], 'sql'>): Promise<PolicySettings> {
  const { app } = buildApp({ sql: db.sql, logLevel: 'silent', distDir: '/nonexistent', ...options });
  try {
    const response = await app.inject('/trpc/policies.settings');
    expect(response.statusCode).toBe(200);
    return transformer.deserialize((response.json() as { result: { data: never } }).result.data);
  } finally {
    await app.close();
  }
}

describe('policies.settings', () => {
  it('gives the configured contact, email provider and the rate limits as enforced', async () => {
    const settings = await settingsOf({
      contactEmail: 'privacy@eggwatch.example',
      publicApiRateLimit: 90,
      auth: { publicUrl: 'http://eggwatch.test', adminSetupKey: 'x'.repeat(16), emailTransport: 'resend' },
    });
    expect(settings).toMatchObject({
      contactEmail: 'privacy@eggwatch.example',
      emailTransport: 'resend',
      publicApiRequestsPerMinute: 90,
    });
    expect(settings.accountLimits.loginPerIp).toEqual(LIMITS.loginPerIp);
    expect(settings.accountLimits.subscribePerEmail).toEqual(LIMITS.subscribePerEmail);
    expect(Object.keys(settings.accountLimits)).not.toContain('egressTestPerAdmin');
  });

  it('says "no contact" and "no limit" when none is configured, and scales the limits like the server', async () => {
    const settings = await settingsOf({
      publicApiRateLimit: 0,
      auth: { publicUrl: 'http://eggwatch.test', adminSetupKey: 'x'.repeat(16), rateLimitScale: 3 },
    });
    expect(settings).toMatchObject({ contactEmail: null, emailTransport: 'outbox', publicApiRequestsPerMinute: 0 });
    expect(settings.accountLimits.loginPerAccount).toEqual({
      max: LIMITS.loginPerAccount.max * 3,
      windowSeconds: LIMITS.loginPerAccount.windowSeconds,
    });
  });
});
