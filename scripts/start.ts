// `npm start`: database, migrations, seed, client build, then the web and worker processes.
import { env } from '#server/env.ts';
import {
  WEB_NODE_FLAGS,
  ensureClientBuild,
  log,
  prepareDatabase,
  runChild,
  superviseChildren,
  waitForHttp,
} from '#server/launcher.ts';

/** The database the app runs on, once it is up (npm run demo drives its official sources through it). */
export let startedDatabaseUrl: string | null = null;

try {
  const database = await prepareDatabase(env);
  startedDatabaseUrl = database.url;
  await ensureClientBuild();
  const childEnv = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production', DATABASE_URL: database.url };
  const web = runChild('web', 'server.ts', childEnv, { nodeFlags: WEB_NODE_FLAGS });
  const worker = runChild('worker', 'worker/index.ts', childEnv);
  superviseChildren([web, worker], database);
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  await waitForHttp(`http://${host}:${env.PORT}/api/stores`, web);
  log(`EggWatch is running at ${env.PUBLIC_URL ?? `http://localhost:${env.PORT}`} (Ctrl-C stops it)`);
} catch (error) {
  console.error(`[eggwatch] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
