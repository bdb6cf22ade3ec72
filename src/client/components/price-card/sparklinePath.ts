// The SVG path of a sparkline: y from sparklineRange, a smooth line with tension
// 0.4 (cubic Béziers whose control points lie along the neighbours' direction, as Chart.js draws
// tension), no points. A non-finite value leaves a gap rather than being interpolated.
import { sparklineRange } from '#shared/sparkline.ts';

export const SPARKLINE_TENSION = 0.4;

interface XY {
  x: number;
  y: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

function controlPoints(previous: XY, current: XY, next: XY, tension: number): { before: XY; after: XY } {
  const d01 = Math.hypot(current.x - previous.x, current.y - previous.y);
  const d12 = Math.hypot(next.x - current.x, next.y - current.y);
  const total = d01 + d12 || 1;
  const fa = (tension * d01) / total;
  const fb = (tension * d12) / total;
  return {
    before: { x: current.x - fa * (next.x - previous.x), y: current.y - fa * (next.y - previous.y) },
    after: { x: current.x + fb * (next.x - previous.x), y: current.y + fb * (next.y - previous.y) },
  };
}

function segmentPath(points: XY[], tension: number, height: number): string {
  const clampY = (y: number) => Math.min(Math.max(y, 0), height);
  const first = points[0]!;
  // A lone day between gaps: a short stub so it stays visible without inventing neighbours.
  if (points.length === 1) return `M${round(first.x - 1)} ${round(first.y)}H${round(first.x + 1)}`;
  const controls = points.map((point, i) =>
    controlPoints(points[i - 1] ?? point, point, points[i + 1] ?? point, tension),
  );
  let path = `M${round(first.x)} ${round(first.y)}`;
  for (let i = 1; i < points.length; i++) {
    const a = controls[i - 1]!.after;
    const b = controls[i]!.before;
    const p = points[i]!;
    path += `C${round(a.x)} ${round(clampY(a.y))} ${round(b.x)} ${round(clampY(b.y))} ${round(p.x)} ${round(p.y)}`;
  }
  return path;
}

/** The runs of consecutive finite values as points in a width x height box (y grows downwards). */
function segmentsOf(values: readonly number[], width: number, height: number): XY[][] {
  const { min, max } = sparklineRange(values);
  const stepX = values.length > 1 ? width / (values.length - 1) : 0;
  const toY = (value: number) => height - ((value - min) / (max - min)) * height;
  const segments: XY[][] = [];
  let current: XY[] = [];
  values.forEach((value, i) => {
    if (Number.isFinite(value)) current.push({ x: i * stepX, y: toY(value) });
    else if (current.length) {
      segments.push(current);
      current = [];
    }
  });
  if (current.length) segments.push(current);
  return segments;
}

/**
 * The path for `values` in a width x height box (y grows downwards). One value draws a flat
 * line across the box; no finite values give ''.
 */
export function sparklinePath(
  values: readonly number[],
  width: number,
  height: number,
  tension = SPARKLINE_TENSION,
): string {
  if (!values.some(Number.isFinite)) return '';
  const segments = segmentsOf(values, width, height);
  if (values.length === 1) return `M0 ${round(segments[0]![0]!.y)}H${width}`;
  return segments.map((segment) => segmentPath(segment, tension, height)).join('');
}

/**
 * The area under the line, down to the bottom of the box, one closed shape per run of values: a
 * light fill that makes even a level line read as a chart, not as a rule across the card.
 */
export function sparklineAreaPath(
  values: readonly number[],
  width: number,
  height: number,
  tension = SPARKLINE_TENSION,
): string {
  if (values.length < 2) return '';
  return segmentsOf(values, width, height)
    .filter((segment) => segment.length > 1)
    .map(
      (segment) =>
        `${segmentPath(segment, tension, height)}L${round(segment.at(-1)!.x)} ${height}L${round(segment[0]!.x)} ${height}Z`,
    )
    .join('');
}
