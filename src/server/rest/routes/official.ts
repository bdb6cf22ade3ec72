// The official sources (docs/features/data-sources.md): their status, and each series' points
// with units, publication days and revisions; CSV like the price lists.
import { z } from 'zod';
import {
  officialSeriesInput,
  officialSeriesSchema,
  officialSourceSchema,
  type OfficialSeriesView,
} from '#shared/official.ts';
import { numberColumn, textColumn, type CsvColumn } from '../csv.ts';
import { csvExport, route, type RestRoute } from '../route.ts';

type OfficialRow = OfficialSeriesView['points'][number] & { seriesId: string; source: string };

const officialColumns: Array<CsvColumn<OfficialRow>> = [
  textColumn('series_id', (r) => r.seriesId),
  textColumn('source', (r) => r.source),
  textColumn('period', (r) => r.period),
  textColumn('value', (r) => r.valueText),
  textColumn('unit', (r) => r.unit),
  numberColumn('low', (r) => r.low),
  numberColumn('high', (r) => r.high),
  numberColumn('stores', (r) => r.stores),
  textColumn('published_on', (r) => r.publishedOn),
  textColumn('fetched_at', (r) => r.fetchedAt),
  textColumn('revised_from', (r) => r.revisions.map((rev) => rev.valueText).join(' ')),
];

export const officialRoutes: readonly RestRoute[] = [
  route({
    method: 'GET',
    path: '/official/sources',
    summary:
      'Every official source (BLS, USDA retail and wholesale, APHIS): what it is, its status, last published, last fetched and next due',
    procedure: 'official.sources',
    response: z.array(officialSourceSchema),
  }),
  route({
    method: 'GET',
    path: '/official/series/:seriesId',
    summary:
      'An official series: each period with its value as published, unit, publication day and revisions (APU0000708111, usda-retail:<region>:<egg_type>, usda-wholesale:national, aphis-layers:<state or US>)',
    procedure: 'official.series',
    query: officialSeriesInput.omit({ seriesId: true }),
    params: {
      seriesId:
        'APU0000708111 (and the other BLS egg series), usda-retail:<region>:<egg_type>, usda-wholesale:national or aphis-layers:<state or US>',
    },
    response: officialSeriesSchema,
    errors: { 404: 'No such series' },
    csv: csvExport<OfficialSeriesView, OfficialRow>({
      rows: (series) => series.points.map((point) => ({ ...point, seriesId: series.seriesId, source: series.source })),
      columns: officialColumns,
      filename: (series) => `${series.seriesId.replace(/[^A-Za-z0-9_-]+/g, '-')}.csv`,
    }),
  }),
];
