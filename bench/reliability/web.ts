// The load benchmark's web process (load.ts): server.ts's process as deployed, plus the baselines
// each path is measured against (baselines.ts), served from the folder BENCH_BASELINE_DIR names.
import { openWebProcess } from '../../src/server/web-process.ts';
import { registerBenchBaselines } from './baselines.ts';

const dir = process.env.BENCH_BASELINE_DIR;
if (!dir) throw new Error('BENCH_BASELINE_DIR must name the folder the baselines are served from');
const web = await openWebProcess();
registerBenchBaselines(web.server.app, dir);
await web.run();
