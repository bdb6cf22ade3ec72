// The environment, parsed once with zod at boot: a bad value stops the process with a clear
// message instead of surfacing later. Nothing else reads process.env (STYLE.md).
import fs from 'node:fs';
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional()),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_PG_DIR: z.string().default('.data/postgres'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: flag,
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  ADMIN_SETUP_KEY: z.preprocess(emptyToUndefined, z.string().min(12, 'must be at least 12 characters').optional()),
  EXPOSE_RESET_TOKEN: flag,
  RESEND_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  EMAIL_FROM: z.string().default('EggWatch <alerts@eggwatch.local>'),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

function load(): Env {
  // A local .env file fills in what the real environment leaves unset.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  return parseEnv(process.env);
}

export const env: Env = load();

export function publicUrl(e: Env = env): string {
  return e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
}
