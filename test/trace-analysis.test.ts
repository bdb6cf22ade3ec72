// The analysis of bench:frontend (bench/trace-analysis.ts) on made-up traces and profiles: the
// blocking time and TBT of the main thread's tasks, self time by kind of work, and the profiler's
// samples attributed to packages through a build's source map.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SourceMapper,
  analyse,
  selfTimes,
  sourceCategory,
  type CpuProfile,
  type TraceEvent,
} from '../bench/trace-analysis.ts';

const PID = 7;
const MAIN = 1;
const ms = (value: number) => value * 1000; // trace timestamps are microseconds

function x(name: string, startMs: number, durMs: number, tid = MAIN): TraceEvent {
  return { name, cat: 'devtools.timeline', ph: 'X', ts: ms(startMs), dur: ms(durMs), pid: PID, tid };
}

const URL_ = 'http://127.0.0.1:9/';

function trace(fcpMs: number, events: TraceEvent[]): TraceEvent[] {
  return [
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: PID, tid: MAIN, args: { name: 'CrRendererMain' } },
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: PID, tid: 2, args: { name: 'Compositor' } },
    {
      name: 'navigationStart',
      cat: 'blink.user_timing',
      ph: 'R',
      ts: ms(1000),
      pid: PID,
      tid: MAIN,
      args: { data: { documentLoaderURL: URL_ } },
    },
    { name: 'firstContentfulPaint', cat: 'loading', ph: 'R', ts: ms(1000 + fcpMs), pid: PID, tid: MAIN },
    ...events,
  ];
}

const NO_PROFILE: CpuProfile = {
  nodes: [{ id: 1, callFrame: { url: '', functionName: '(root)', lineNumber: -1, columnNumber: -1 } }],
  samples: [],
  timeDeltas: [],
  startTime: 0,
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trace-analysis-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('blocking time', () => {
  it('counts the part of each task beyond 50 ms, and for TBT only what lies after the first contentful paint', () => {
    const events = trace(150, [
      x('RunTask', 1000, 30), // short: blocks nothing
      x('RunTask', 1100, 120), // spans FCP (1150): 70 ms after it
      x('RunTask', 1300, 80), // after FCP
      x('RunTask', 1500, 40, 2), // another thread: ignored
    ]);
    const result = analyse(events, NO_PROFILE, URL_, new SourceMapper({}));
    expect(result.longTasks).toBe(2);
    expect(result.blockingMs).toBe(70 + 30);
    expect(result.tbt).toBe(20 + 30);
    expect(result.fcp).toBe(150);
  });

  it('has no TBT when the only long task ends before the first paint', () => {
    const result = analyse(trace(300, [x('RunTask', 1000, 250)]), NO_PROFILE, URL_, new SourceMapper({}));
    expect(result.tbt).toBe(0);
    expect(result.blockingMs).toBe(200);
  });
});

describe('self time by kind of work', () => {
  it('takes each nested event out of its parent', () => {
    const totals = selfTimes([
      x('RunTask', 0, 100),
      x('FunctionCall', 10, 60),
      x('v8.compile', 20, 10),
      x('UpdateLayoutTree', 80, 15),
    ]);
    expect(Object.fromEntries([...totals].map(([name, us]) => [name, us / 1000]))).toEqual({
      RunTask: 25,
      FunctionCall: 50,
      'v8.compile': 10,
      UpdateLayoutTree: 15,
    });
  });

  it('groups events and splits script evaluation by the sources the profiler saw', () => {
    // A one-line bundle whose source map sends column 0 to Chakra and column 10 to an app page.
    fs.mkdirSync(path.join(tmp, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'assets/app.js'), 'function a(){}function b(){}\n');
    fs.writeFileSync(
      path.join(tmp, 'assets/app.js.map'),
      JSON.stringify({
        version: 3,
        sources: [
          '../node_modules/@chakra-ui/react/dist/esm/styled-system/css.js',
          '../src/client/pages/dashboard/DashboardPage.tsx',
        ],
        names: [],
        mappings: 'AAAA,UCAA',
      }),
    );
    const mapper = new SourceMapper({ 'http://127.0.0.1:9': tmp });
    const frame = (columnNumber: number) => ({
      url: `${URL_}assets/app.js`,
      functionName: 'f',
      lineNumber: 0,
      columnNumber,
    });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { url: '', functionName: '(root)', lineNumber: -1, columnNumber: -1 } },
        { id: 2, callFrame: frame(0) },
        { id: 3, callFrame: frame(10) },
        { id: 4, callFrame: { url: '', functionName: '(idle)', lineNumber: -1, columnNumber: -1 } },
      ],
      // Three samples in Chakra, one in the page, then idle; each lasts until the next one.
      samples: [2, 2, 2, 3, 4],
      timeDeltas: [ms(1000), ms(10), ms(10), ms(10), ms(10)],
      startTime: 0,
    };
    const events = trace(500, [
      x('RunTask', 1000, 200),
      x('FunctionCall', 1000, 120),
      x('v8.compile', 1000, 20),
      x('UpdateLayoutTree', 1150, 30),
    ]);
    const result = analyse(events, profile, URL_, mapper);
    expect(result.breakdown['script: Chakra UI + emotion']).toBeCloseTo(75);
    expect(result.breakdown['script: app: pages']).toBeCloseTo(25);
    expect(result.breakdown['script parse & compile']).toBe(20);
    expect(result.breakdown['style & layout']).toBe(30);
    expect(result.breakdown['task time outside traced events']).toBe(50);
    expect(result.scriptingMs).toBe(120);
    expect(result.mainThreadMs).toBe(200);
  });

  it('names the parts of the stack by package and the app by area', () => {
    expect(sourceCategory('../node_modules/react-dom/cjs/react-dom-client.production.js')).toBe(
      'React (react-dom, scheduler)',
    );
    expect(sourceCategory('../node_modules/@emotion/hash/dist/emotion-hash.esm.js')).toBe('Chakra UI + emotion');
    expect(sourceCategory('../node_modules/@nivo/line/dist/nivo-line.mjs')).toBe('nivo / d3');
    expect(sourceCategory('../node_modules/@trpc/client/dist/index.mjs')).toBe('React Query + tRPC');
    expect(sourceCategory('../src/client/components/layout/NewsTicker.tsx')).toBe('ticker (app)');
    expect(sourceCategory('../node_modules/zod/index.js')).toBe('package: zod');
  });
});
