// `npm run dev`: the API and worker restart on server changes (tsx watch) and Vite serves the
// client with hot reload on PORT, proxying /api and /trpc to the API on PORT + 1.
import { createServer } from 'vite';
import { env } from '#server/env.ts';
import { ROOT, log, prepareDatabase, runChild, superviseChildren, waitForHttp } from '#server/launcher.ts';

try {
  const database = await prepareDatabase(env);
  const apiPort = env.PORT + 1;
  const childEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: database.url,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
  };
  const web = runChild('api', 'server.ts', childEnv, { watch: true });
  const worker = runChild('worker', 'worker/index.ts', childEnv, { watch: true });
  superviseChildren([web, worker], database);
  await waitForHttp(`http://127.0.0.1:${apiPort}/api/stores`, web);
  process.env.API_PORT = String(apiPort);
  const vite = await createServer({ root: ROOT, server: { port: env.PORT, host: env.HOST, strictPort: true } });
  await vite.listen();
  log(`Development server at http://localhost:${env.PORT} (API on ${apiPort}; Ctrl-C stops it)`);
} catch (error) {
  console.error(`[eggwatch] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
