// The chart layer that draws a value no line reaches (a series' only day, or a day between gaps)
// as a point: nivo draws a line only between two values, so one day of prices drew nothing.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { LineCustomSvgLayerProps } from '@nivo/line';
import { LonePoints, type TimeSeries } from './TimeLineChart.tsx';

type Props = LineCustomSvgLayerProps<TimeSeries>;

/** A computed series as nivo hands it to a layer: each day at x = 10 * index, y = 100 - value. */
function computed(id: string, color: string, values: Array<number | null>): Props['series'][number] {
  return {
    id,
    color,
    data: values.map((y, i) => ({
      data: { x: new Date(Date.UTC(2026, 10, 19 + i)), y },
      position: { x: 10 * i, y: y === null ? (null as unknown as number) : 100 - y },
    })),
  };
}

function circles(series: Props['series']): string[] {
  const html = renderToStaticMarkup(<svg>{LonePoints({ series } as Props)}</svg>);
  return [...html.matchAll(/<circle [^>]*>/g)].map((m) => m[0]);
}

describe('LonePoints', () => {
  it('draws the only day of a series as a point in its colour', () => {
    const drawn = circles([computed('National Average', '#34C759', [null, null, null, null, null, null, 3.4])]);
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toContain('cx="60"');
    expect(drawn[0]).toContain('cy="96.6"');
    expect(drawn[0]).toContain('fill="#34C759"');
  });

  it('draws a day between gaps, and nothing where a line already runs', () => {
    const drawn = circles([
      computed('Organic', '#FFB300', [3, 3.1, null, 3.2, null, 3.3, 3.4]),
      computed('Standard', '#94A3B8', [2, 2.1, 2.2]),
    ]);
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toContain('cx="30"');
  });
});
