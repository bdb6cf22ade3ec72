// Nationwide coverage (issue: every store of the six chains, discovered and priced every day): the
// inputs the admin area and the API send, shared with the server's validation, and the arithmetic
// of a plan (what it costs, whether its interval fits its budget). Pure: no I/O.
import { z } from 'zod';
import { STATE_REGIONS, type UsState } from './zip.ts';
import { zipListSchema } from './zip-list.ts';
import { STORE_IDS, type StoreId } from './vocabulary.ts';
import { plural } from './format.ts';

export const US_STATES = Object.keys(STATE_REGIONS) as UsState[];

/** The minute of every hour at which the worker's scheduler starts the plans' visit days (UTC). */
export const COVERAGE_SCHEDULE_MINUTE = 5;

/**
 * When a plan's next visit day begins: the scheduler's next tick if today's day has not been
 * started yet, else its first tick of tomorrow (UTC).
 */
export function nextVisitDayAt(now: Date, startedToday: boolean): Date {
  const hourTick = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate(),
    now.getUTCHours(),
    COVERAGE_SCHEDULE_MINUTE,
  );
  if (!startedToday) return new Date(hourTick > now.getTime() ? hourTick : hourTick + 3_600_000);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, COVERAGE_SCHEDULE_MINUTE));
}

/**
 * US stores per chain (public company figures, 2024-2025; about 15,000 in all; see
 * docs/features/scraping.md, 'Retailer facts the code relies on'): what a nationwide directory
 * holds. The stand-in network, the nationwide benchmarks and the visit-day estimate all size
 * themselves from it.
 */
export const US_STORE_COUNTS: Readonly<Record<StoreId, number>> = {
  walmart: 4600,
  target: 1970,
  kroger: 2700,
  albertsons: 2250,
  'whole-foods': 530,
  aldi: 2400,
};

/**
 * `total` stores split over the six chains in proportion to US_STORE_COUNTS, in whole stores that
 * add up to `total` exactly (largest remainder; ties go to the chain listed first).
 */
export function storeShares(total: number): Record<StoreId, number> {
  const sum = STORE_IDS.reduce((acc, id) => acc + US_STORE_COUNTS[id], 0);
  const exact = STORE_IDS.map((id) => ({ id, value: (US_STORE_COUNTS[id] * total) / sum }));
  const shares = Object.fromEntries(exact.map((e) => [e.id, Math.floor(e.value)])) as Record<StoreId, number>;
  let left = total - exact.reduce((acc, e) => acc + shares[e.id], 0);
  for (const e of [...exact].sort((a, b) => b.value - Math.floor(b.value) - (a.value - Math.floor(a.value)))) {
    if (left-- <= 0) break;
    shares[e.id] += 1;
  }
  return shares;
}

/** Most ZIP codes one zips scope names, and the radius range around each (miles). */
export const MAX_SCOPE_ZIPS = 100;
export const MAX_SCOPE_RADIUS_MILES = 100;
export const DEFAULT_SCOPE_RADIUS_MILES = 25;

const stateCode = z
  .string({ message: 'each state must be a two-letter code' })
  .max(64, 'a state code is two letters')
  .transform((value) => value.trim().toUpperCase());

export const coverageScopeSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('nationwide') }).strict(),
    z
      .object({
        kind: z.literal('states'),
        states: z
          .array(stateCode, { message: 'states must be a list of two-letter state codes' })
          .max(60, 'states: at most 51 (the 50 states and DC)')
          .transform((list, ctx) => {
            const states = [...new Set(list.filter((s) => s !== ''))];
            const bad = states.filter((s) => !Object.hasOwn(STATE_REGIONS, s));
            if (bad.length > 0) {
              ctx.addIssue({
                code: 'custom',
                message: `Not US state codes: ${bad.map((s) => JSON.stringify(s)).join(', ')}`,
              });
              return z.NEVER;
            }
            if (states.length === 0) {
              ctx.addIssue({ code: 'custom', message: 'Choose at least one state' });
              return z.NEVER;
            }
            return states.sort() as UsState[];
          }),
      })
      .strict(),
    z
      .object({
        kind: z.literal('zips'),
        zipCodes: zipListSchema({
          max: MAX_SCOPE_ZIPS,
          tooMany: (given) => `At most ${MAX_SCOPE_ZIPS} ZIP codes in a scope (${given} given)`,
        }),
        radiusMiles: z
          .number({ message: 'radiusMiles must be a number of miles' })
          .int('radiusMiles must be a whole number of miles')
          .min(1, 'radiusMiles must be 1 to 100')
          .max(MAX_SCOPE_RADIUS_MILES, 'radiusMiles must be 1 to 100')
          .default(DEFAULT_SCOPE_RADIUS_MILES),
      })
      .strict(),
  ],
  { message: 'scope.kind must be nationwide, states or zips' },
);
export type CoverageScope = z.output<typeof coverageScopeSchema>;
export type CoverageScopeInput = z.input<typeof coverageScopeSchema>;

export const coverageStoreSchema = z.enum(STORE_IDS, { message: `store must be one of ${STORE_IDS.join(', ')}` });

export const coverageDiscoverInput = z.object({ store: coverageStoreSchema, scope: coverageScopeSchema }).strict();

export const MAX_REVISIT_DAYS = 30;
export const MAX_DAILY_REQUEST_BUDGET = 1_000_000;

export const coveragePlanInput = z
  .object({
    store: coverageStoreSchema,
    scope: coverageScopeSchema,
    revisitDays: z
      .number({ message: 'revisitDays must be a number of days' })
      .int('revisitDays must be a whole number of days')
      .min(1, `revisitDays must be 1 to ${MAX_REVISIT_DAYS}`)
      .max(MAX_REVISIT_DAYS, `revisitDays must be 1 to ${MAX_REVISIT_DAYS}`)
      .default(1),
    /** Omitted: the retailer's default (defaultDailyBudget). */
    dailyRequestBudget: z
      .number({ message: 'dailyRequestBudget must be a number of requests' })
      .int('dailyRequestBudget must be a whole number')
      .min(1, 'dailyRequestBudget must be at least 1')
      .max(
        MAX_DAILY_REQUEST_BUDGET,
        `dailyRequestBudget must be at most ${MAX_DAILY_REQUEST_BUDGET.toLocaleString('en-US')}`,
      )
      .optional(),
  })
  .strict();
export type CoveragePlanInput = z.input<typeof coveragePlanInput>;

/** The graphile-worker queue of a retailer: its jobs run one at a time across every worker. */
export function retailerQueue(store: StoreId): string {
  return `retailer:${store}`;
}

const DAY_MS = 86_400_000;

/** Kroger's products API allows 10,000 calls a day per application; its default stays under. */
export const KROGER_DAILY_API_LIMIT = 10_000;
export const KROGER_DEFAULT_BUDGET = 9_000;

/**
 * The default daily request budget: what one request at a time at the politeness delay sends in
 * a day (requests take time of their own, so it is never reached), and under Kroger's API limit.
 */
export function defaultDailyBudget(store: StoreId, delayMs: number): number {
  const atDelay = Math.floor(DAY_MS / Math.max(delayMs, 1));
  return store === 'kroger' ? Math.min(atDelay, KROGER_DEFAULT_BUDGET) : Math.min(atDelay, MAX_DAILY_REQUEST_BUDGET);
}

/**
 * Requests one store visit sends when no run has measured it yet: the listing pages of a store's
 * egg search and its stock calls, as each module sends them (Kroger also needs a token now and
 * then; Whole Foods a product page for the store code and a stock call; Target a stock call).
 */
export const ESTIMATED_REQUESTS_PER_VISIT: Record<StoreId, number> = {
  walmart: 2,
  target: 2,
  kroger: 2,
  albertsons: 1,
  'whole-foods': 3,
  aldi: 1,
};

export interface PlanCostInput {
  storesInScope: number;
  requestsPerVisit: number;
  revisitDays: number;
  dailyRequestBudget: number;
  delayMs: number;
}

export interface PlanCost {
  /** Stores visited on an average day (every store once per revisitDays). */
  storesPerDay: number;
  requestsPerDay: number;
  /** Hours a day the requests take at the politeness delay alone (one at a time). */
  hoursPerDay: number;
  /** Requests a day the budget and the day's length allow, the smaller of the two. */
  requestsPerDayAllowed: number;
  /** Every store can be visited at the chosen interval. */
  fits: boolean;
  /** The shortest interval (days) the budget and the delay allow; null when no store is in scope. */
  shortestRevisitDays: number | null;
}

/** What a plan costs per day, and whether it fits its budget and the day (see PlanCost). */
export function planCost({
  storesInScope,
  requestsPerVisit,
  revisitDays,
  dailyRequestBudget,
  delayMs,
}: PlanCostInput): PlanCost {
  const storesPerDay = Math.ceil(storesInScope / revisitDays);
  const requestsPerDay = Math.ceil(storesPerDay * requestsPerVisit);
  const hoursPerDay = (requestsPerDay * delayMs) / 3_600_000;
  const requestsPerDayAllowed = Math.min(dailyRequestBudget, Math.floor(DAY_MS / Math.max(delayMs, 1)));
  const fits = requestsPerDay <= requestsPerDayAllowed;
  const needed = storesInScope * requestsPerVisit;
  const shortestRevisitDays =
    storesInScope === 0
      ? null
      : requestsPerDayAllowed <= 0
        ? null
        : Math.max(1, Math.ceil(needed / requestsPerDayAllowed));
  return { storesPerDay, requestsPerDay, hoursPerDay, requestsPerDayAllowed, fits, shortestRevisitDays };
}

/** A visit day pauses its plan when at least this share of the day's visits were blocked... */
export const BLOCKED_PAUSE_SHARE = 0.5;
/** ...once at least this many visits were made that day (a few blocks are not a wall). */
export const BLOCKED_PAUSE_MIN_VISITS = 20;

/** Stores per visit job: a crash loses at most one chunk's progress. */
export const VISIT_CHUNK_SIZE = 25;

/** A store no complete sweep found this many times in a row is closed. */
export const CLOSE_AFTER_MISSED_SWEEPS = 2;

export const COVERAGE_RUN_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed', 'paused'] as const;
export type CoverageRunStatus = (typeof COVERAGE_RUN_STATUSES)[number];

/** Whether a day's blocked visits should pause the plan. */
export function shouldPause(visits: number, blocked: number): boolean {
  return visits >= BLOCKED_PAUSE_MIN_VISITS && blocked / visits >= BLOCKED_PAUSE_SHARE;
}

/**
 * What a discovery found, in words: "11 stores found" when every one is in the scope, else "11
 * found: 2 in scope, 9 nearby outside it" (a locator answers the stores near its point, across a
 * state line or a radius too; they are kept, and counted apart).
 */
export function discoveryFoundText(found: number, inScope: number): string {
  if (inScope >= found) return `${plural(found, 'store')} found`;
  return `${found.toLocaleString('en-US')} found: ${inScope.toLocaleString('en-US')} in scope, ${(found - inScope).toLocaleString('en-US')} nearby outside it`;
}

/** A reason a discovery could not file answered stores, and how many. */
export interface SkippedReason {
  reason: string;
  stores: number;
}

/** The stores a discovery could not file, in words: "3 stores skipped: <reason> (2); <reason> (1)". */
export function discoverySkippedText(skipped: number, reasons: readonly SkippedReason[]): string {
  const why = reasons.map((r) => `${r.reason} (${r.stores.toLocaleString('en-US')})`).join('; ');
  return `${plural(skipped, 'store')} skipped${why ? `: ${why}` : ''}`;
}

/** A scope in words: "Nationwide", "2 states: RI, UT", "3 ZIP codes within 25 miles". */
export function scopeText(scope: CoverageScope): string {
  if (scope.kind === 'nationwide') return 'Nationwide';
  if (scope.kind === 'states')
    return `${scope.states.length === 1 ? '1 state' : `${scope.states.length} states`}: ${scope.states.join(', ')}`;
  return `${scope.zipCodes.length === 1 ? '1 ZIP code' : `${scope.zipCodes.length} ZIP codes`} within ${scope.radiusMiles} miles`;
}
