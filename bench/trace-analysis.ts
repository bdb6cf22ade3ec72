// The analysis behind `npm run bench:frontend` (bench/frontend.ts), apart from the browser so
// that vitest can check it on made-up traces (test/trace-analysis.test.ts): main-thread tasks and
// their blocking time, self time by kind of work, and the CPU profiler's samples attributed to
// source packages through the build's source maps.
import fs from 'node:fs';
import path from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';

// ---------------------------------------------------------------------------------------------
// Kinds of main-thread work, from trace event names (the grouping of Lighthouse's main-thread
// work audit), and the source of the JavaScript that runs.

export const GROUPS: Array<[group: string, test: (name: string) => boolean]> = [
  [
    'script parse & compile',
    (n) =>
      /^(v8\.compile|v8\.compileModule|v8\.parseOnBackground|V8\.CompileCode|v8\.produceCache|v8\.produceModuleCache|CacheScript)/.test(
        n,
      ),
  ],
  // V8's interrupts during script execution: tier-up (optimising hot functions) and stack checks.
  [
    'script tier-up & interrupts',
    (n) =>
      /^V8\.(BytecodeBudgetInterrupt|HandleInterrupts|StackGuard|BytecodeBudgetInterruptWithStackCheck|InstallCode)/.test(
        n,
      ),
  ],
  [
    'script evaluation',
    (n) =>
      /^(EvaluateScript|v8\.evaluateModule|FunctionCall|TimerFire|FireIdleCallback|FireAnimationFrame|RunMicrotasks|V8\.Execute|EventDispatch|v8\.run|XHRReadyStateChange|XHRLoad)$/.test(
        n,
      ),
  ],
  ['garbage collection', (n) => /GC|Sweep|Marking|Scavenge|MinorMS|MajorMS/.test(n)],
  [
    'style & layout',
    (n) =>
      /^(ScheduleStyleRecalculation|UpdateLayoutTree|RecalculateStyles|InvalidateLayout|Layout|ParseAuthorStyleSheet|IntersectionObserverController::computeIntersections|StyleRecalcInvalidationTracking)$/.test(
        n,
      ),
  ],
  [
    'paint & composite',
    (n) =>
      /^(Paint|PaintSetup|PaintImage|PrePaint|Layerize|UpdateLayer|UpdateLayerTree|CompositeLayers|RasterTask|HitTest|Animation|ScrollLayer|Commit|Decode Image|Draw LazyPixelRef)$/.test(
        n,
      ),
  ],
  [
    'HTML parse & document load',
    (n) =>
      n === 'ParseHTML' ||
      /^(DocumentLoader|HTMLDocumentParser|NavigationBodyLoader|DecodedDataDocumentParser)::/.test(n),
  ],
];
export const groupOf = (name: string) =>
  GROUPS.find(([, test]) => test(name))?.[0] ?? (name === 'RunTask' ? 'task time outside traced events' : 'other');

/** Where a source file belongs: the named parts of the stack, app code by area, else the package. */
export function sourceCategory(source: string): string {
  const s = source.replace(/\\/g, '/');
  if (/src\/client\/components\/layout\/NewsTicker/.test(s)) return 'ticker (app)';
  const at = s.lastIndexOf('node_modules/');
  if (at < 0) {
    if (/src\/client\/components\/charts\//.test(s)) return 'app: charts';
    if (/src\/client\/pages\//.test(s)) return 'app: pages';
    if (/src\/(client|shared)\//.test(s)) return 'app: components & lib';
    if (/frontend-baseline/.test(s)) return 'app: baseline page';
    return 'app: other';
  }
  const parts = s.slice(at + 'node_modules/'.length).split('/');
  const pkg = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? s);
  if (/^(react-dom|react|scheduler)$/.test(pkg)) return 'React (react-dom, scheduler)';
  if (/^(@chakra-ui\/|@emotion\/|stylis$|@pandacss\/|next-themes$)/.test(pkg)) return 'Chakra UI + emotion';
  if (/^(@zag-js\/|@ark-ui\/|@floating-ui\/|@internationalized\/|@swc\/helpers)/.test(pkg))
    return 'Ark UI / zag (Chakra components)';
  if (/^(@nivo\/|d3-|@react-spring\/|internmap$|lodash)/.test(pkg)) return 'nivo / d3';
  if (/^(@tanstack\/|@trpc\/|superjson$|copy-anything$|is-what$)/.test(pkg)) return 'React Query + tRPC';
  if (/^(react-router|react-router-dom)$/.test(pkg)) return 'React Router';
  if (pkg === 'react-icons') return 'react-icons';
  return `package: ${pkg}`;
}

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; frame?: string };
}

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

export interface LoadMeasure {
  /** ms after navigation start. */
  fcp: number;
  tbt: number;
  /** The part beyond 50 ms of every main-thread task from navigation start on (TBT without its FCP cut). */
  blockingMs: number;
  longTasks: number;
  longTaskMs: number;
  mainThreadMs: number;
  scriptingMs: number;
  /** Main-thread self time (ms) by kind of work, script evaluation split by source. */
  breakdown: Record<string, number>;
}

export function mainThreadOf(events: TraceEvent[]): { pid: number; tid: number } {
  const candidates = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  let best = { pid: -1, tid: -1, busy: -1 };
  for (const c of candidates) {
    const busy = events
      .filter((e) => e.pid === c.pid && e.tid === c.tid && e.name === 'RunTask')
      .reduce((sum, e) => sum + (e.dur ?? 0), 0);
    if (busy > best.busy) best = { pid: c.pid, tid: c.tid, busy };
  }
  if (best.pid < 0) throw new Error('the trace has no renderer main thread');
  return best;
}

/** Self time per event name on one thread (complete events, nested by time). */
export function selfTimes(events: TraceEvent[]): Map<string, number> {
  const spans = events
    .filter((e) => e.ph === 'X' && typeof e.dur === 'number')
    .map((e) => ({ name: e.name, start: e.ts, end: e.ts + e.dur!, child: 0 }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const totals = new Map<string, number>();
  const stack: typeof spans = [];
  const close = (span: (typeof spans)[number]) =>
    totals.set(span.name, (totals.get(span.name) ?? 0) + Math.max(0, span.end - span.start - span.child));
  for (const span of spans) {
    while (stack.length && stack.at(-1)!.end <= span.start) close(stack.pop()!);
    const parent = stack.at(-1);
    if (parent) {
      span.end = Math.min(span.end, parent.end);
      parent.child += span.end - span.start;
    }
    stack.push(span);
  }
  while (stack.length) close(stack.pop()!);
  return totals;
}

export class SourceMapper {
  private maps = new Map<string, TraceMap | null>();
  constructor(private readonly dirs: Record<string, string>) {}

  private mapFor(url: string): TraceMap | null {
    if (this.maps.has(url)) return this.maps.get(url)!;
    let map: TraceMap | null = null;
    try {
      const parsed = new URL(url);
      const dir = this.dirs[parsed.origin];
      const file = dir ? path.join(dir, decodeURIComponent(parsed.pathname)) : '';
      if (file && fs.existsSync(`${file}.map`)) map = new TraceMap(fs.readFileSync(`${file}.map`, 'utf8'));
    } catch {
      map = null;
    }
    this.maps.set(url, map);
    return map;
  }

  source(frame: CpuProfile['nodes'][number]['callFrame']): string {
    const map = frame.url ? this.mapFor(frame.url) : null;
    if (!map) return frame.url || '(native)';
    const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: Math.max(0, frame.columnNumber) });
    return `${(position.source ?? '?').replace(/^.*node_modules\//, '')}:${position.line}`;
  }

  category(frame: CpuProfile['nodes'][number]['callFrame']): string {
    if (!frame.url)
      return frame.functionName
        ? `browser / native (${frame.functionName.startsWith('(') ? frame.functionName : 'built-ins'})`
        : 'browser / native';
    const map = this.mapFor(frame.url);
    if (!map) return /^https?:/.test(frame.url) ? 'unmapped script' : 'browser / extension script';
    const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: Math.max(0, frame.columnNumber) });
    return position.source ? sourceCategory(position.source) : 'unmapped script';
  }
}

export function analyse(events: TraceEvent[], profile: CpuProfile, url: string, mapper: SourceMapper): LoadMeasure {
  const { pid, tid } = mainThreadOf(events);
  const main = events.filter((e) => e.pid === pid && e.tid === tid);
  const navigation = events
    .filter(
      (e) =>
        e.pid === pid &&
        e.name === 'navigationStart' &&
        String(e.args?.data?.documentLoaderURL ?? '').startsWith(url.split('#')[0]!),
    )
    .at(-1);
  const navStart = navigation?.ts ?? Math.min(...main.filter((e) => e.name === 'RunTask').map((e) => e.ts));
  const fcpEvent = events.find((e) => e.pid === pid && e.name === 'firstContentfulPaint' && e.ts >= navStart);
  const fcp = fcpEvent ? fcpEvent.ts : navStart;
  const tasks = main.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && (e.dur ?? 0) > 0 && e.ts + e.dur! >= navStart,
  );
  let tbt = 0;
  let blockingMs = 0;
  let longTaskMs = 0;
  let longTasks = 0;
  for (const task of tasks) {
    const dur = task.dur! / 1000;
    if (dur > 50) {
      longTasks++;
      longTaskMs += dur;
      blockingMs += dur - 50;
    }
    // Blocking time counts only after the first contentful paint; a task spanning it counts with
    // its part after it, less 50 ms (as Lighthouse clips tasks to its TBT window).
    const after = (task.ts + task.dur! - Math.max(task.ts, fcp)) / 1000;
    if (dur > 50 && after > 50) tbt += after - 50;
  }
  if (process.env.FRONTEND_DEBUG) {
    for (const task of tasks.filter((t) => t.dur! > 50_000)) {
      const inside = main
        .filter((e) => e.ts >= task.ts && e.ts < task.ts + task.dur! && e !== task && (e.dur ?? 0) > 8000)
        .map(
          (e) =>
            `${e.name}${e.args?.data?.url ? `(${String(e.args.data.url).slice(-30)})` : ''} ${Math.round(e.dur! / 1000)}`,
        );
      console.log(
        `  long task at ${Math.round((task.ts - navStart) / 1000)} ms, ${Math.round(task.dur! / 1000)} ms: ${inside.slice(0, 8).join(', ')}`,
      );
    }
    console.log(`  FCP ${Math.round((fcp - navStart) / 1000)} ms`);
  }
  const byName = selfTimes(main.filter((e) => e.ts + (e.dur ?? 0) >= navStart));
  const groups = new Map<string, number>();
  for (const [name, us] of byName) groups.set(groupOf(name), (groups.get(groupOf(name)) ?? 0) + us / 1000);
  if (process.env.FRONTEND_DEBUG) {
    const other = [...byName]
      .filter(([name]) => groupOf(name) === 'other')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12);
    console.log(
      `[frontend] 'other' by event name: ${other.map(([name, us]) => `${name} ${Math.round(us / 1000)}`).join(', ')}`,
    );
  }

  // The profiler's samples: self time per source category, for the samples after navigation.
  const nodeCategory = new Map<number, string>();
  for (const node of profile.nodes) {
    const fn = node.callFrame.functionName;
    nodeCategory.set(
      node.id,
      fn === '(idle)' || fn === '(program)' || fn === '(root)'
        ? ''
        : fn === '(garbage collector)'
          ? '(gc)'
          : mapper.category(node.callFrame),
    );
  }
  const js = new Map<string, number>();
  const debugFiles = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (t < navStart) continue;
    const category = nodeCategory.get(profile.samples[i]!) ?? '';
    if (!category || category === '(gc)') continue;
    js.set(category, (js.get(category) ?? 0) + next / 1000);
    if (process.env.FRONTEND_DEBUG) {
      const node = profile.nodes.find((n) => n.id === profile.samples[i]);
      const key = `${mapper.source(node!.callFrame)} ${node!.callFrame.functionName}`;
      debugFiles.set(key, (debugFiles.get(key) ?? 0) + next / 1000);
    }
  }
  if (process.env.FRONTEND_DEBUG)
    console.log(
      [...debugFiles]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([k, v]) => `  ${Math.round(v)} ${k}`)
        .join('\n'),
    );
  const jsTotal = [...js.values()].reduce((a, b) => a + b, 0);
  const evaluation = groups.get('script evaluation') ?? 0;
  const breakdown: Record<string, number> = {};
  for (const [group, value] of groups) if (group !== 'script evaluation') breakdown[group] = value;
  // Script evaluation split in the proportions of the JavaScript the profiler saw running.
  if (jsTotal > 0)
    for (const [category, value] of js) breakdown[`script: ${category}`] = (evaluation * value) / jsTotal;
  else breakdown['script: (no samples)'] = evaluation;
  const mainThreadMs = [...groups.values()].reduce((a, b) => a + b, 0);
  return {
    fcp: (fcp - navStart) / 1000,
    tbt,
    blockingMs,
    longTasks,
    longTaskMs,
    mainThreadMs,
    scriptingMs:
      evaluation + (groups.get('script parse & compile') ?? 0) + (groups.get('script tier-up & interrupts') ?? 0),
    breakdown,
  };
}
