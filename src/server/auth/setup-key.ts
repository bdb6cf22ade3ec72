// The key /admin/setup asks for: ADMIN_SETUP_KEY, or one generated for this run and printed
// while no administrator exists (the operator reads it from the log).
import crypto from 'node:crypto';
import type { Env } from '../env.ts';
import type { Db } from '../db.ts';
import { adminExists } from '../queries/users.ts';

export async function adminSetupKey(env: Env, sql: Db): Promise<string> {
  if (env.ADMIN_SETUP_KEY) return env.ADMIN_SETUP_KEY;
  const key = crypto.randomBytes(18).toString('base64url');
  if (!(await adminExists(sql))) {
    console.log(`[eggwatch] No administrator exists yet. Create one at /admin/setup with this setup key: ${key}`);
  }
  return key;
}
