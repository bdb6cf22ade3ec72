import { appRouter } from '../src/server/routers/_app.ts';
import { createCallerFactory } from '../src/server/trpc.ts';
import { createContextInner, type AppConfig, type ContextInner } from '../src/server/context.ts';
import { createSessions } from '../src/server/auth/lucia.ts';

const createCaller = createCallerFactory(appRouter);

export const TEST_SETUP_KEY = 'test-admin-setup-key';

export function testConfig(sql: ContextInner['sql'], overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    sessions: createSessions(sql, { secure: false }),
    publicUrl: 'http://eggwatch.test',
    exposeResetToken: false,
    adminSetupKey: TEST_SETUP_KEY,
    ...overrides,
  };
}

/** A tRPC caller with the given context parts (an anonymous visitor by default). */
export function callerFor(inner: Omit<ContextInner, 'config'> & { config?: Partial<AppConfig> }) {
  return createCaller(createContextInner({ ...inner, config: testConfig(inner.sql, inner.config) }));
}
