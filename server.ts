// The web process. `npm start` launches it (with the worker) through scripts/start.ts; it can
// also run alone against DATABASE_URL, e.g. as one of several instances behind a load balancer.
import { openWebProcess } from '#server/web-process.ts';

await (await openWebProcess()).run();
