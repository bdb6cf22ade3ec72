// Nationwide coverage: discovery, plans and visit days of each retailer (administrators only).
import { z } from 'zod';
import { COVERAGE_RUN_STATUSES, coverageDiscoverInput, coveragePlanInput } from '#shared/coverage.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { route, type RestRoute } from '../route.ts';

const STORE = `The retailer: ${STORE_IDS.join(', ')}`;

const scope = z.union([
  z.object({ kind: z.literal('nationwide') }),
  z.object({ kind: z.literal('states'), states: z.array(z.string()) }),
  z.object({ kind: z.literal('zips'), zipCodes: z.array(z.string()), radiusMiles: z.number() }),
]);

const run = z.object({
  id: z.number(),
  kind: z.enum(['discover', 'visit']),
  status: z.enum(COVERAGE_RUN_STATUSES),
  active: z.boolean(),
  trigger: z.enum(['manual', 'schedule']),
  scope,
  scopeText: z.string(),
  day: z.string().nullable(),
  demo: z.boolean(),
  pointsPlanned: z.number(),
  pointsDone: z.number(),
  locatorCalls: z.number(),
  storesFound: z.number(),
  storesInScope: z.number().nullable().describe('of the stores found, those inside the scope (null for older runs)'),
  storesNew: z.number(),
  storesClosed: z.number(),
  storesSkipped: z.number().describe('stores answered that could not be filed (no ZIP code, coordinates or city)'),
  skippedReasons: z.array(z.object({ reason: z.string(), stores: z.number() })),
  storesPlanned: z.number(),
  storesVisited: z.number(),
  storesFailed: z.number(),
  storesBlocked: z.number(),
  chunksPlanned: z.number(),
  chunksDone: z.number(),
  requests: z.number(),
  message: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  heartbeatAt: z.string().nullable(),
});

const cost = z.object({
  storesPerDay: z.number(),
  requestsPerDay: z.number(),
  hoursPerDay: z.number().describe('hours a day the requests take at the politeness delay alone'),
  requestsPerDayAllowed: z.number(),
  fits: z.boolean().describe('every store in scope can be visited every revisitDays days'),
  shortestRevisitDays: z.number().nullable().describe('the shortest interval the budget and the delay allow'),
});

const perVisit = z.object({
  value: z.number(),
  source: z.enum(['visits', 'zip-runs', 'estimate']),
  samples: z.number(),
});

const plan = z.object({
  store: z.enum(STORE_IDS),
  scope,
  scopeText: z.string(),
  revisitDays: z.number(),
  dailyRequestBudget: z.number(),
  enabled: z.boolean(),
  pausedAt: z.string().nullable(),
  pausedReason: z.string().nullable(),
  updatedAt: z.string(),
  storesInScope: z.number(),
  cost,
});

const retailer = z.object({
  store: z.enum(STORE_IDS),
  name: z.string(),
  active: z.boolean(),
  known: z.number().describe("open stores with the retailer's own id"),
  inScope: z
    .number()
    .describe("known stores in the plan's scope; without a plan, every known store (inScopeBasis says which)"),
  inScopeBasis: z.enum(['plan', 'known']),
  visitedDay: z.number(),
  visitedWeek: z.number(),
  neverVisited: z.number().describe('stores in scope (as inScope) never visited'),
  failing: z.number(),
  blocked: z.number(),
  reasons: z.array(z.object({ kind: z.string().nullable(), message: z.string().nullable(), stores: z.number() })),
  states: z.array(z.object({ state: z.string(), known: z.number(), visitedDay: z.number(), share: z.number() })),
  failingStores: z.array(
    z.object({
      id: z.number(),
      retailerId: z.string(),
      name: z.string().nullable(),
      address: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      zip: z.string(),
      kind: z.string().nullable(),
      message: z.string().nullable(),
      lastVisitAt: z.string(),
      lastPricedAt: z.string().nullable(),
    }),
  ),
  nextChunk: z
    .object({
      runId: z.number(),
      chunk: z.number(),
      chunks: z.number(),
      stores: z.number(),
      firstStores: z.array(z.string()),
    })
    .nullable(),
  nextDayAt: z.string().nullable(),
  discovery: run.nullable(),
  visit: run.nullable().describe('the running or latest visit day that had stores to visit'),
  nothingDue: z
    .object({ day: z.string().nullable(), finishedAt: z.string().nullable(), nextDueDay: z.string().nullable() })
    .nullable()
    .describe('the latest scheduled day, when newer than visit, that found no store due, and the first day one is due'),
  plan: plan.nullable(),
  requestsPerVisit: perVisit,
  defaultBudget: z.number(),
  delayMs: z.number(),
});

export const coverageRoutes: RestRoute[] = [
  route({
    method: 'GET',
    path: '/coverage',
    summary:
      "Every retailer's coverage: stores known, in the plan's scope, visited in the last 24 hours and 7 days, never visited, failing and blocked with their reasons, per state, the failing stores, the next planned chunk, the running or latest discovery and visit day, and the plan with its cost",
    procedure: 'coverage.overview',
    response: z.array(retailer),
    auth: 'admin',
    list: {},
  }),
  route({
    method: 'POST',
    path: '/coverage/:store/discover',
    summary:
      "Start a discovery of a retailer's stores over a scope (the whole country, listed states, or ZIP codes with a radius); 202 with the run id",
    procedure: 'coverage.discover',
    params: { store: STORE },
    body: coverageDiscoverInput.omit({ store: true }),
    response: z.object({
      runId: z.number(),
      store: z.enum(STORE_IDS),
      status: z.literal('queued'),
      scope,
      message: z.string(),
    }),
    status: 202,
    auth: 'admin',
    errors: { 409: 'A discovery of this retailer is already queued or running, or the store is inactive' },
  }),
  route({
    method: 'PUT',
    path: '/coverage/:store/plan',
    summary:
      "Save a retailer's coverage plan: scope, revisitDays (1 to 30, default 1) and dailyRequestBudget (default the retailer's); saving resumes a paused plan. Answers the plan with its cost",
    procedure: 'coverage.savePlan',
    params: { store: STORE },
    body: coveragePlanInput.omit({ store: true }),
    response: plan.extend({ requestsPerVisit: perVisit }),
    auth: 'admin',
  }),
  route({
    method: 'POST',
    path: '/coverage/:store/visit',
    summary: "Start a visit day of a retailer's plan now; 202 with the run id",
    procedure: 'coverage.visit',
    params: { store: STORE },
    response: z.object({
      runId: z.number(),
      store: z.enum(STORE_IDS),
      status: z.literal('queued'),
      message: z.string(),
    }),
    status: 202,
    auth: 'admin',
    errors: {
      409: 'A visit day is already queued or running, the retailer has no plan, its plan is paused, or no known store is in its scope',
    },
  }),
];
