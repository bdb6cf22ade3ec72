// The Coverage tab's words and numbers: run progress, the plan's cost and its verdict, the form's
// draft scope and numbers, reasons, the next chunk, the map's shares, colours and insets.
import { describe, expect, it } from 'vitest';
import {
  anyRunActive,
  clearPlanDraft,
  inScopeLabel,
  nothingDueText,
  planDraftKey,
  readPlanDraft,
  visitNowBlocker,
  writePlanDraft,
  checkBudget,
  checkRevisitDays,
  costLines,
  draftScope,
  hoursText,
  FIPS_STATES,
  insetPosition,
  mapLabel,
  nextChunkText,
  percentText,
  pausedText,
  planForm,
  progressValueText,
  reasonText,
  requestsPerVisitText,
  runProgressText,
  runProgressValue,
  SHARE_COLORS,
  shareColor,
  stateRows,
  statesForMap,
  NO_STORES_COLOR,
  type CoverageRun,
  type RetailerCoverage,
} from './coverageView.ts';

const run = (patch: Partial<CoverageRun>): CoverageRun => ({
  id: 1,
  kind: 'visit',
  status: 'running',
  active: true,
  trigger: 'manual',
  scope: { kind: 'states', states: ['RI'] },
  scopeText: '1 state: RI',
  day: '2026-11-25',
  demo: true,
  pointsPlanned: 0,
  pointsDone: 0,
  locatorCalls: 0,
  storesFound: 0,
  storesInScope: 0,
  storesNew: 0,
  storesClosed: 0,
  storesSkipped: 0,
  skippedReasons: [],
  storesPlanned: 0,
  storesVisited: 0,
  storesFailed: 0,
  storesBlocked: 0,
  chunksPlanned: 0,
  chunksDone: 0,
  requests: 0,
  message: null,
  createdAt: '2026-11-25T10:00:00Z',
  startedAt: null,
  finishedAt: null,
  heartbeatAt: null,
  ...patch,
});

describe('run progress', () => {
  it('says what a discovery has swept and found', () => {
    const sweep = run({
      kind: 'discover',
      pointsPlanned: 40,
      pointsDone: 12,
      locatorCalls: 12,
      storesFound: 1234,
      storesInScope: 1234,
      storesNew: 14,
    });
    // The total grows as the sweep splits crowded areas: an estimate until it has finished.
    expect(runProgressText(sweep)).toBe(
      'Running: 12 of about 40 points swept, 12 locator calls, 1,234 stores found (14 new).',
    );
    expect(runProgressValue(sweep)).toEqual({ value: 12, max: 40, estimate: true });
    expect(progressValueText(runProgressValue(sweep)!)).toBe('12 of about 40');
    const finished = { ...sweep, status: 'succeeded' as const, active: false, pointsDone: 40, storesClosed: 2 };
    expect(runProgressText(finished)).toBe(
      'Finished: 40 of 40 points swept, 12 locator calls, 1,234 stores found (14 new, 2 closed).',
    );
    expect(progressValueText(runProgressValue(finished)!)).toBe('40 of 40');
    expect(runProgressText({ ...sweep, status: 'queued', pointsPlanned: 0 })).toBe(
      'Queued: waiting for a worker to start the discovery (1 state: RI).',
    );
  });

  it('says how much of a visit day is done, its failures, chunk and requests', () => {
    const day = run({
      storesPlanned: 52,
      storesVisited: 27,
      storesFailed: 2,
      storesBlocked: 1,
      chunksPlanned: 3,
      chunksDone: 1,
      requests: 61,
    });
    expect(runProgressText(day)).toBe(
      'Running: 27 of 52 stores visited (2 failed, 1 blocked), chunk 2 of 3, 61 requests.',
    );
    expect(runProgressValue(day)).toEqual({ value: 30, max: 52, estimate: false });
    expect(runProgressText(run({}))).toBe("Running: planning the day's stores.");
    expect(runProgressValue(run({}))).toBeNull();
    expect(runProgressText({ ...day, status: 'paused', active: false, message: 'Blocked on 30 of 40 visits' })).toBe(
      'Paused: 27 of 52 stores visited (2 failed, 1 blocked). Blocked on 30 of 40 visits',
    );
  });

  it('counts the stores found near the scope but outside it apart, and the ones it could not file', () => {
    const vermont = run({
      kind: 'discover',
      status: 'succeeded',
      active: false,
      scopeText: '1 state: VT',
      pointsPlanned: 3,
      pointsDone: 3,
      locatorCalls: 3,
      storesFound: 11,
      storesInScope: 2,
      storesNew: 11,
    });
    expect(runProgressText(vermont)).toBe(
      'Finished: 3 of 3 points swept, 3 locator calls, 11 found: 2 in scope, 9 nearby outside it (11 new).',
    );
    const skipped = {
      ...vermont,
      status: 'failed' as const,
      storesFound: 0,
      storesInScope: 0,
      storesNew: 0,
      storesSkipped: 3,
      skippedReasons: [
        { reason: 'the answer gives no ZIP code, coordinates or city to file it under', stores: 2 },
        { reason: 'no ZIP code of Lakewood, CO lies within 53 miles of the point asked', stores: 1 },
      ],
      message: 'Found no store in 1 state: VT.',
    };
    expect(runProgressText(skipped)).toBe(
      'Failed: 3 of about 3 points swept, 3 locator calls, 0 stores found (0 new); 3 stores skipped: the answer gives no ZIP code, coordinates or city to file it under (2); no ZIP code of Lakewood, CO lies within 53 miles of the point asked (1). Found no store in 1 state: VT.',
    );
    // A run from before the count of stores in scope says what it found, as it always did.
    expect(runProgressText({ ...vermont, storesInScope: null })).toContain('11 stores found (11 new)');
  });

  it('polls fast while any run is queued or running', () => {
    expect(anyRunActive(undefined)).toBe(false);
    expect(
      anyRunActive([{ discovery: null, visit: run({ active: false, status: 'succeeded' }) } as RetailerCoverage]),
    ).toBe(false);
    expect(
      anyRunActive([{ discovery: run({ kind: 'discover', status: 'queued' }), visit: null } as RetailerCoverage]),
    ).toBe(true);
  });
});

describe('the plan cost', () => {
  const measured = { value: 2.5, source: 'visits' as const, samples: 340 };

  it('fits: stores, measured requests per visit, hours a day at the delay', () => {
    const lines = costLines({
      storesInScope: 1000,
      perVisit: measured,
      revisitDays: 1,
      dailyRequestBudget: 57_600,
      delayMs: 1500,
    });
    expect(lines.stores).toBe('1,000 known stores in scope, 1,000 stores a day (every day)');
    expect(lines.requests).toBe('2.5 requests per visit, measured on 340 visits in the last 7 days');
    expect(lines.time).toBe('2,500 requests a day: 1 hour at the 1.5 s delay; 57,600 requests a day allowed');
    expect(lines.verdict).toBe('Every store in scope can be visited every day.');
    expect(lines.fits).toBe(true);
  });

  it('does not fit: names the interval the budget allows', () => {
    const lines = costLines({
      storesInScope: 4600,
      perVisit: { value: 2, source: 'estimate', samples: 0 },
      revisitDays: 1,
      dailyRequestBudget: 3000,
      delayMs: 1500,
    });
    expect(lines.requests).toBe('2 requests per visit, estimated (nothing measured in the last 7 days)');
    expect(lines.verdict).toBe('Not every store can be visited every day: the budget allows every 4 days.');
    expect(lines.fits).toBe(false);
    expect(
      costLines({ storesInScope: 4600, perVisit: measured, revisitDays: 1, dailyRequestBudget: 10, delayMs: 1500 })
        .verdict,
    ).toBe('Not every store can be visited every day, nor every 30 days: raise the budget or narrow the scope.');
  });

  it('with no known store in scope, asks for a discovery', () => {
    const lines = costLines({
      storesInScope: 0,
      perVisit: { value: 3, source: 'zip-runs', samples: 4 },
      revisitDays: 1,
      dailyRequestBudget: 100,
      delayMs: 400,
    });
    expect(lines.verdict).toBe('No known store is in this scope yet: run a discovery to find them.');
    expect(lines.requests).toContain('measured on 4 ZIP codes of runs');
    expect(lines.time).toContain('at the 400 ms delay');
  });

  it('the time a day takes, in minutes under an hour', () => {
    expect([0.001, 0.2, 1, 1.04, 1.55, 16.2].map(hoursText)).toEqual([
      'under a minute',
      '12 minutes',
      '1 hour',
      '1 hour',
      '1.6 hours',
      '16 hours',
    ]);
  });

  it('requests per visit in words for each source', () => {
    expect(requestsPerVisitText({ value: 1, source: 'visits', samples: 1 })).toBe(
      '1 request per visit, measured on 1 visit in the last 7 days',
    );
  });
});

describe('the plan form', () => {
  it("starts from the saved plan, or nationwide, daily, at the retailer's default budget", () => {
    expect(planForm({ plan: null, defaultBudget: 9000 })).toEqual({
      kind: 'nationwide',
      states: [],
      zipCodes: '',
      radiusMiles: '25',
      revisitDays: '1',
      dailyRequestBudget: '9000',
    });
    const plan = {
      scope: { kind: 'zips', zipCodes: ['84101', '02903'], radiusMiles: 10 },
      revisitDays: 3,
      dailyRequestBudget: 500,
    } as NonNullable<RetailerCoverage['plan']>;
    expect(planForm({ plan, defaultBudget: 9000 })).toMatchObject({
      kind: 'zips',
      zipCodes: '84101, 02903',
      radiusMiles: '10',
      revisitDays: '3',
      dailyRequestBudget: '500',
    });
  });

  it("checks the draft scope by the API's rules", () => {
    const base = { states: [], zipCodes: '', radiusMiles: '25' };
    expect(draftScope({ ...base, kind: 'nationwide' })).toEqual({ ok: true, value: { kind: 'nationwide' } });
    expect(draftScope({ ...base, kind: 'states', states: ['UT', 'RI'] })).toEqual({
      ok: true,
      value: { kind: 'states', states: ['RI', 'UT'] },
    });
    expect(draftScope({ ...base, kind: 'states' })).toEqual({ ok: false, error: 'Choose at least one state' });
    expect(draftScope({ ...base, kind: 'zips', zipCodes: '84101,  02903 84101' })).toEqual({
      ok: true,
      value: { kind: 'zips', zipCodes: ['84101', '02903'], radiusMiles: 25 },
    });
    expect(draftScope({ ...base, kind: 'zips', zipCodes: '8410' })).toEqual({
      ok: false,
      error: 'Not 5-digit ZIP codes: "8410"',
    });
    expect(draftScope({ ...base, kind: 'zips', zipCodes: '84101', radiusMiles: '' })).toMatchObject({ ok: false });
    expect(draftScope({ ...base, kind: 'zips', zipCodes: '84101', radiusMiles: '250' })).toEqual({
      ok: false,
      error: 'radiusMiles must be 1 to 100',
    });
  });

  it('checks the interval and the budget', () => {
    expect(checkRevisitDays('7')).toEqual({ ok: true, value: 7 });
    expect(checkRevisitDays('0')).toEqual({ ok: false, error: 'Revisit interval must be 1 to 30' });
    expect(checkRevisitDays('1.5')).toEqual({ ok: false, error: 'Revisit interval must be a whole number' });
    expect(checkBudget('57,600')).toEqual({ ok: true, value: 57_600 });
    expect(checkBudget('')).toEqual({ ok: false, error: 'Daily request budget must be a whole number' });
    expect(checkBudget('2000000')).toEqual({ ok: false, error: 'Daily request budget must be 1 to 1,000,000' });
  });
});

describe('reasons and the next chunk', () => {
  it('names a failure kind and how many stores it holds', () => {
    expect(reasonText({ kind: 'blocked', message: 'The retailer answered its block page', stores: 2 })).toBe(
      'Blocked: The retailer answered its block page (2 stores)',
    );
    expect(reasonText({ kind: null, message: null, stores: 1 })).toBe('Failed (1 store)');
    expect(reasonText({ kind: 'teapot', message: 'odd', stores: 1 })).toBe('teapot: odd (1 store)');
  });

  it('says why a plan is paused, in sentences, and how to resume it', () => {
    expect(pausedText('9 of 16 visits were blocked')).toBe(
      '9 of 16 visits were blocked. Save the plan to resume its visits.',
    );
    expect(pausedText('Blocked.')).toBe('Blocked. Save the plan to resume its visits.');
    expect(pausedText(null)).toBe('No reason was recorded. Save the plan to resume its visits.');
  });

  it('shows the next queued chunk, else when the next day begins, else why nothing is planned', () => {
    const when = (iso: string) => `at ${iso}`;
    const plan = { pausedAt: null } as NonNullable<RetailerCoverage['plan']>;
    expect(
      nextChunkText(
        {
          nextChunk: { runId: 1, chunk: 1, chunks: 3, stores: 25, firstStores: ['A, UT', 'B, UT'] },
          nextDayAt: null,
          plan,
          visit: null,
        },
        when,
      ),
    ).toBe('Chunk 2 of 3, 25 stores: A, UT; B, UT and more.');
    expect(nextChunkText({ nextChunk: null, nextDayAt: '2026-11-26T00:00:00.000Z', plan, visit: null }, when)).toBe(
      'The next visit day begins at 2026-11-26T00:00:00.000Z.',
    );
    expect(nextChunkText({ nextChunk: null, nextDayAt: null, plan: null, visit: null }, when)).toBe(
      'No plan yet: save a plan to schedule visits.',
    );
    expect(
      nextChunkText(
        { nextChunk: null, nextDayAt: null, plan: { ...plan, pausedAt: '2026-11-25T01:00:00Z' }, visit: null },
        when,
      ),
    ).toBe('The plan is paused: no visit is scheduled until it is saved again.');
    expect(nextChunkText({ nextChunk: null, nextDayAt: null, plan, visit: run({ status: 'queued' }) }, when)).toBe(
      'The visit day is queued; its chunks are planned when it starts.',
    );
  });
});

describe('the map', () => {
  it('rows by state name with shares, states without stores left out', () => {
    const rows = stateRows([
      { state: 'UT', known: 5, visitedDay: 3, share: 0.6 },
      { state: 'DC', known: 200, visitedDay: 1, share: 0.005 },
      { state: 'RI', known: 0, visitedDay: 0, share: 0 },
    ]);
    expect(rows.map((r) => [r.name, r.shareText])).toEqual([
      ['District of Columbia', '<1%'],
      ['Utah', '60%'],
    ]);
    expect(mapLabel('Walmart', rows)).toBe(
      "US map of the share of Walmart stores visited in the last 24 hours by state: 2 states with stores, 4 of 205 stores visited (2%). The Table button shows each state's figures.",
    );
    expect(mapLabel('Walmart', [])).toBe('US map of Walmart stores visited in the last 24 hours: no known stores yet.');
    expect(percentText(0)).toBe('0%');
  });

  it("colours a share as the choropleth's five equal steps do", () => {
    expect([0, 0.19, 0.2, 0.5, 0.79, 0.8, 1].map(shareColor)).toEqual([
      SHARE_COLORS[0],
      SHARE_COLORS[0],
      SHARE_COLORS[1],
      SHARE_COLORS[2],
      SHARE_COLORS[3],
      SHARE_COLORS[4],
      SHARE_COLORS[4],
    ]);
    expect(shareColor(null)).toBe(NO_STORES_COLOR);
  });

  it('keeps the 50 states and DC by postal code and insets Alaska and Hawaii below the southwest', () => {
    expect(Object.keys(FIPS_STATES)).toHaveLength(51);
    const square = (lon: number, lat: number) => ({
      type: 'Polygon',
      coordinates: [
        [
          [lon, lat],
          [lon + 1, lat],
          [lon + 1, lat + 1],
          [lon, lat],
        ],
      ],
    });
    const features = statesForMap([
      { id: '49', geometry: square(-112, 40) },
      { id: '72', geometry: square(-66, 18) },
      { id: '02', geometry: square(-152, 63) },
      {
        id: '15',
        geometry: {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [-157.5, 20.5],
                [-157, 20.5],
                [-157, 21],
                [-157.5, 20.5],
              ],
            ],
          ],
        },
      },
    ]);
    expect(features.map((f) => f.id)).toEqual(['UT', 'AK', 'HI']);
    expect(features[0]!.geometry).toEqual(square(-112, 40));
    expect((features[1]!.geometry.coordinates as number[][][])[0]![0]).toEqual([-117, 26]);
    expect((features[2]!.geometry.coordinates as number[][][][])[0]![0]![0]).toEqual([-104, 24.5]);
    // The Aleutians past the antimeridian stay beside the rest of Alaska.
    expect(insetPosition('02', [179, 52])[0]).toBeLessThan(-117);
    expect(insetPosition('06', [-120, 37])).toEqual([-120, 37]);
  });
});

describe('the figures and the visit day as a new admin sees them', () => {
  const plan = {
    store: 'target',
    scope: { kind: 'states', states: ['VT'] },
    scopeText: '1 state: VT',
    revisitDays: 7,
    dailyRequestBudget: 1000,
    enabled: true,
    pausedAt: null,
    pausedReason: null,
    updatedAt: '2026-11-20T10:00:00Z',
    storesInScope: 2,
    cost: {} as never,
  } as RetailerCoverage['plan'];
  const retailer = (patch: Partial<RetailerCoverage>) =>
    ({
      name: 'Target',
      active: true,
      plan: null,
      inScope: 11,
      inScopeBasis: 'known',
      visit: null,
      ...patch,
    }) as RetailerCoverage;

  it('labels the stores in scope by what they count', () => {
    expect(inScopeLabel(retailer({}))).toBe('In scope (no plan: all known)');
    expect(inScopeLabel(retailer({ plan, inScopeBasis: 'plan' }))).toBe("In the plan's scope");
  });

  it('disables Visit now with the reason until a visit day can start', () => {
    expect(visitNowBlocker(retailer({}))).toBe("Save a plan first: a visit day visits the plan's stores.");
    expect(visitNowBlocker(retailer({ active: false }))).toBe(
      'Target is inactive: activate it in the Stores tab first.',
    );
    expect(visitNowBlocker(retailer({ plan: { ...plan!, pausedAt: '2026-11-21T00:00:00Z' } }))).toBe(
      'The plan is paused: save it to resume its visits.',
    );
    expect(visitNowBlocker(retailer({ plan, inScope: 0 }))).toBe(
      "No known store is in the plan's scope yet: run a discovery first.",
    );
    expect(visitNowBlocker(retailer({ plan, visit: run({}) }))).toBe('A visit day is already queued or running.');
    expect(visitNowBlocker(retailer({ plan, inScope: 2 }))).toBeNull();
  });

  it('says a day had nothing due, and when the next store is due', () => {
    expect(nothingDueText({ day: '2026-11-25', finishedAt: null, nextDueDay: '2026-11-27' }, '2026-11-25')).toBe(
      'Nothing due today; next due Nov 27.',
    );
    expect(nothingDueText({ day: '2026-11-24', finishedAt: null, nextDueDay: '2026-11-25' }, '2026-11-25')).toBe(
      'Nothing due on Nov 24; next due today.',
    );
    expect(nothingDueText({ day: '2026-11-25', finishedAt: null, nextDueDay: null }, '2026-11-25')).toBe(
      'Nothing due today; no known store in the scope.',
    );
  });
});

describe("the plan form's draft", () => {
  const memory = () => {
    const items = new Map<string, string>();
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
      items,
    };
  };
  const draft = {
    kind: 'zips' as const,
    states: [],
    zipCodes: '84101, 02903',
    radiusMiles: '30',
    revisitDays: '2',
    dailyRequestBudget: '5000',
  };

  it('outlives a reload: written as typed, read back per retailer, forgotten once saved', () => {
    const storage = memory();
    expect(readPlanDraft(storage, 'target')).toBeNull();
    writePlanDraft(storage, 'target', draft);
    expect(readPlanDraft(storage, 'target')).toEqual(draft);
    expect(readPlanDraft(storage, 'walmart')).toBeNull();
    clearPlanDraft(storage, 'target');
    expect(readPlanDraft(storage, 'target')).toBeNull();
  });

  it('ignores a stored value that is not a draft, and storage that throws', () => {
    const storage = memory();
    storage.setItem(planDraftKey('target'), '{"kind":"everywhere"}');
    expect(readPlanDraft(storage, 'target')).toBeNull();
    storage.setItem(planDraftKey('target'), 'not json');
    expect(readPlanDraft(storage, 'target')).toBeNull();
    const broken = {
      getItem: () => {
        throw new Error('disabled');
      },
      setItem: () => {
        throw new Error('disabled');
      },
      removeItem: () => {
        throw new Error('disabled');
      },
    };
    expect(readPlanDraft(broken, 'target')).toBeNull();
    expect(() => writePlanDraft(broken, 'target', draft)).not.toThrow();
    expect(() => clearPlanDraft(null, 'target')).not.toThrow();
  });
});
