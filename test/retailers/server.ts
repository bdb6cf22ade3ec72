// The retailer stand-in for all six retailers (tests, the offline demo, the benchmark).
import { albertsonsStandIn } from './albertsons.ts';
import { aldiStandIn } from './aldi.ts';
import { serveStandIns, type StandInOptions, type StandInServer } from './http-server.ts';
import { krogerStandIn } from './kroger.ts';
import { targetStandIn } from './target.ts';
import type { RetailerStandIn } from './types.ts';
import { walmartStandIn } from './walmart.ts';
import { wholeFoodsStandIn } from './whole-foods.ts';

export const STAND_INS: RetailerStandIn[] = [
  walmartStandIn,
  targetStandIn,
  krogerStandIn,
  albertsonsStandIn,
  wholeFoodsStandIn,
  aldiStandIn,
];

export function startStandIn(options: StandInOptions = {}): Promise<StandInServer> {
  return serveStandIns(STAND_INS, options);
}

export type { StandInServer };
