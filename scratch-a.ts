import { inProcessContext } from './test/retailers/in-process.ts';
import { METRO_STAND_INS } from './test/retailers/metro-locators.ts';
import { STAND_INS } from './test/retailers/server.ts';
import { SCRAPERS } from './worker/scrapers/index.ts';
import { Sweep } from './worker/coverage/sweep.ts';
const store = (process.argv[2] ?? 'whole-foods') as 'whole-foods';
const h = process.argv[3] === 'stand-in' ? STAND_INS : METRO_STAND_INS;
const scope = { kind: 'states', states: ['CO', 'UT', 'NM', 'RI', 'DE', 'CA', 'IL'] } as never;
const sc = SCRAPERS[store];
const sweep = new Sweep(scope, sc.discovery!);
const ctx = inProcessContext(store, h);
const bySize = new Map<number, { n: number; newStores: number; proven: number; count: number }>();
const seen = new Set<string>();
for (;;) {
  const p = sweep.next();
  if (!p) break;
  const size = sweep.state.pending[0]![2];
  const a = await sc.discovery!.discover(p, ctx);
  sweep.answered(p, a.provenMiles, a.measured);
  const e = bySize.get(size) ?? { n: 0, newStores: 0, proven: 0, count: 0 };
  e.n++; e.proven += a.provenMiles; e.count += a.stores.length;
  for (const s of a.stores) if (!seen.has(s.retailerLocationId)) { seen.add(s.retailerLocationId); e.newStores++; }
  bySize.set(size, e);
}
for (const [size, e] of [...bySize].sort((a, b) => b[0] - a[0])) console.log(size, 'calls', e.n, 'new', e.newStores, 'avg proven', (e.proven / e.n).toFixed(1), 'avg count', (e.count / e.n).toFixed(1));
