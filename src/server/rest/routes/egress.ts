// Egress: each retailer's proxies and tiers (redacted to host and port), its last 24 hours, and
// Test connection (administrators only).
import { z } from 'zod';
import { egressTestInput, PROXY_PROTOCOLS, TRANSPORTS } from '#shared/egress.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { route, type RestRoute } from '../route.ts';

const STORE = `The retailer: ${STORE_IDS.join(', ')}`;

const attempt = z.object({
  step: z.enum(['locator', 'listings']),
  host: z.string(),
  path: z.string(),
  tier: z.string(),
  proxy: z.string().nullable().describe('host:port of the proxy (never its credentials); null at the direct tier'),
  transport: z.enum(TRANSPORTS),
  status: z.number().nullable(),
  wall: z
    .string()
    .nullable()
    .describe('the bot wall recognised: PerimeterX, Akamai, Imperva, Cloudflare, DataDome, F5'),
  error: z.string().nullable(),
  ms: z.number(),
});
const test = z.object({
  id: z.number(),
  store: z.enum(STORE_IDS),
  zipCode: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  message: z.string().nullable(),
  result: z
    .object({
      transport: z.enum(TRANSPORTS),
      attempts: z.array(attempt),
      store: z
        .object({ id: z.string().nullable(), name: z.string().nullable(), zip: z.string().nullable() })
        .nullable(),
      stores: z.number(),
      listings: z.number(),
      eggPrices: z.number(),
      durationMs: z.number(),
    })
    .nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
const proxy = z.object({ label: z.string(), protocol: z.enum(PROXY_PROTOCOLS), authenticated: z.boolean() });
const retailer = z.object({
  store: z.enum(STORE_IDS),
  name: z.string(),
  tiers: z.array(z.object({ name: z.string(), proxies: z.array(proxy) })),
  transport: z.enum(TRANSPORTS),
  requestsPerMinute: z.number(),
  paceSource: z.enum(['retailer', 'delay']),
  spacingMs: z.number(),
  dailyBudget: z.number().nullable(),
  tierInUse: z.object({ name: z.string(), coolUntil: z.string().nullable(), reason: z.string().nullable() }),
  requestsToday: z.number(),
  lastDay: z.array(
    z.object({
      tier: z.string(),
      configured: z.boolean(),
      requests: z.number(),
      walls: z.number(),
      failures: z.number(),
    }),
  ),
  latestTest: test.nullable(),
});

export const egressRoutes: RestRoute[] = [
  route({
    method: 'GET',
    path: '/scrapers/egress',
    summary:
      "Every retailer's egress: its tiers of proxies (host and port only), transport, requests a minute, daily budget, the tier in use, its last 24 hours by tier (requests, walls, failures) and its latest connection test",
    procedure: 'egress.overview',
    response: z.array(retailer),
    auth: 'admin',
    list: {},
  }),
  route({
    method: 'POST',
    path: '/scrapers/:store/test',
    summary:
      "Test a retailer's connection: one locator call and one product-list call for a ZIP code through its configured egress, run by the worker; 202 with the test, whose result GET /scrapers/{store}/test/{id} gives",
    procedure: 'egress.test',
    params: { store: STORE },
    body: egressTestInput.omit({ store: true }),
    response: test,
    status: 202,
    auth: 'admin',
    errors: {
      409: 'A connection test of this retailer is already queued or running',
      429: 'More than six connection tests a minute from this administrator',
    },
  }),
  route({
    method: 'GET',
    path: '/scrapers/:store/test/:id',
    summary:
      'A connection test: queued, running, or its result (every request with its tier, proxy, transport, status, wall and time; stores and listings read)',
    procedure: 'egress.testResult',
    params: { store: STORE, id: 'The test id' },
    response: test,
    auth: 'admin',
    errors: { 404: 'No such connection test of this retailer' },
  }),
];
