import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, filterFieldOrDefault, type FilterSelection } from './filters.ts';
import { filterSelectionSchema } from './schemas.ts';

// filterFieldOrDefault (zod-free, used by the dashboard's URL state) must read every field the way
// filterSelectionSchema does, with the default for whatever the schema rejects.
const SAMPLES: readonly unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'all',
  'ALL',
  ' All ',
  'alll',
  'standard',
  'Cage-Free',
  'cage_free',
  ' pasture raised ',
  'PASTURE-RAISED',
  'organic',
  'brown',
  `${'x'.repeat(38)}organic`,
  ` organic${' '.repeat(40)}`,
  'Midwest',
  ' south ',
  'pacific',
  'walmart',
  ' Whole-Foods ',
  'walmart!',
  'a'.repeat(64),
  'a'.repeat(65),
  'price',
  ' Unit-Price ',
  'freshness',
  'trend',
  'name',
  '6',
  ' 12 ',
  '24',
  '36',
  '12.5',
  '-6',
  '1e1',
  6,
  12,
  30,
  36,
  12.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  'true',
  'false',
  [12],
  { count: 12 },
];

describe('filterFieldOrDefault', () => {
  const keys = Object.keys(DEFAULT_FILTERS) as Array<keyof FilterSelection>;
  for (const key of keys) {
    it(`reads ${key} as filterSelectionSchema does`, () => {
      for (const sample of SAMPLES) {
        const parsed = filterSelectionSchema.shape[key].safeParse(sample);
        const expected = parsed.success ? parsed.data : DEFAULT_FILTERS[key];
        expect({ sample, value: filterFieldOrDefault(key, sample) }).toEqual({ sample, value: expected });
      }
    });
  }
});
