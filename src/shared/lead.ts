// How far one weekly series leads another (wholesale over shelf prices), measured by
// cross-correlation, and an outlook that is shown only when its backtest beats "no change".
// Series are arrays over the same consecutive weeks; null is a week without a figure.

export interface Lead {
  /** Weeks the leading series is ahead (0: they move together). */
  weeks: number;
  /** Pearson correlation of follow[t] with lead[t - weeks]. */
  correlation: number;
  /** Weeks compared at that lag. */
  pairs: number;
}

/** At least this many weeks at a lag before its correlation counts. */
export const MIN_PAIRS = 8;

function pearson(xs: number[], ys: number[]): number | null {
  const n = xs.length;
  if (n < 3) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** Pairs (lead[t - lag], follow[t]) where both have figures. */
function pairsAt(lead: Array<number | null>, follow: Array<number | null>, lag: number): [number[], number[]] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let t = lag; t < follow.length; t += 1) {
    const x = lead[t - lag];
    const y = follow[t];
    if (x != null && y != null) {
      xs.push(x);
      ys.push(y);
    }
  }
  return [xs, ys];
}

/**
 * The lag (0..maxLag weeks) at which `lead`'s past correlates best with `follow`, on week-to-week
 * changes (levels that both trend would correlate at every lag); null without enough weeks.
 */
export function measureLead(lead: Array<number | null>, follow: Array<number | null>, maxLag = 8): Lead | null {
  const diff = (s: Array<number | null>) =>
    s.map((v, i) => (i > 0 && v != null && s[i - 1] != null ? v - s[i - 1]! : null));
  const dl = diff(lead);
  const df = diff(follow);
  let best: Lead | null = null;
  for (let lag = 0; lag <= maxLag; lag += 1) {
    const [xs, ys] = pairsAt(dl, df, lag);
    if (xs.length < MIN_PAIRS) continue;
    const r = pearson(xs, ys);
    if (r !== null && (best === null || r > best.correlation)) best = { weeks: lag, correlation: r, pairs: xs.length };
  }
  return best && best.correlation > 0 ? best : null;
}

export interface Backtest {
  /** Mean absolute error of the lead-based forecast, and of "no change", over the same weeks. */
  modelError: number;
  naiveError: number;
  weeks: number;
}

/** follow[t] ≈ a + b · lead[t - lag], fitted by least squares on the given weeks. */
function fit(lead: Array<number | null>, follow: Array<number | null>, lag: number, upTo: number) {
  const [xs, ys] = pairsAt(lead.slice(0, upTo), follow.slice(0, upTo), lag);
  if (xs.length < MIN_PAIRS) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i += 1) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  if (sxx === 0) return null;
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

/**
 * A walk forward over the history: at each week t with enough history before it, the model fitted
 * on weeks before t forecasts follow[t + h] (h = 1..lag, from lead[t + h - lag], already known at
 * t) and "no change" forecasts follow[t]; both errors over the same forecasts.
 */
export function backtest(lead: Array<number | null>, follow: Array<number | null>, lag: number): Backtest | null {
  if (lag < 1) return null;
  let model = 0;
  let naive = 0;
  let n = 0;
  for (let t = 0; t < follow.length; t += 1) {
    const now = follow[t];
    if (now == null) continue;
    const params = fit(lead, follow, lag, t + 1);
    if (!params) continue;
    for (let h = 1; h <= lag && t + h < follow.length; h += 1) {
      const actual = follow[t + h];
      const driver = lead[t + h - lag];
      if (actual == null || driver == null) continue;
      model += Math.abs(params.a + params.b * driver - actual);
      naive += Math.abs(now - actual);
      n += 1;
    }
  }
  return n === 0 ? null : { modelError: model / n, naiveError: naive / n, weeks: n };
}

/** The next `lag` weeks of `follow` from the model fitted on all the history; null if it cannot fit. */
export function outlook(lead: Array<number | null>, follow: Array<number | null>, lag: number): number[] | null {
  const params = fit(lead, follow, lag, follow.length);
  if (!params) return null;
  const out: number[] = [];
  for (let h = 1; h <= lag; h += 1) {
    const driver = lead[follow.length + h - 1 - lag];
    if (driver == null) return null;
    out.push(params.a + params.b * driver);
  }
  return out;
}
