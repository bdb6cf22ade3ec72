import { inProcessContext } from './test/retailers/in-process.ts';
import { METRO_STAND_INS } from './test/retailers/metro-locators.ts';
import { SCRAPERS } from './worker/scrapers/index.ts';
import { Sweep } from './worker/coverage/sweep.ts';
import { zipMarginMiles } from './worker/scrapers/discovery.ts';
const store = 'albertsons';
const scope = { kind: 'states', states: ['CO', 'UT', 'NM', 'RI', 'DE', 'CA', 'IL'] } as never;
const sc = SCRAPERS[store];
const sweep = new Sweep(scope, sc.discovery!);
const ctx = inProcessContext(store, METRO_STAND_INS);
let n = 0;
for (;;) {
  const p = sweep.next();
  if (!p) break;
  const size = sweep.state.pending[0]![2];
  const a = await sc.discovery!.discover(p, ctx);
  sweep.answered(p, a.provenMiles, a.measured);
  if (size < 0.02 && n++ < 25) console.log(p.zip, 'r', p.radiusMiles?.toFixed(2), 'margin', zipMarginMiles(p.zip), 'count', a.stores.length, 'proven', a.provenMiles.toFixed(2), a.stores.map(s=>s.city).join(','));
}
