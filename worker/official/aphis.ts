// USDA APHIS's confirmed highly pathogenic avian influenza detections in flocks (APHIS_HPAI_URL,
// a CSV, no key). Only commercial table-egg layer flocks are kept, summed by state and by week
// (weeks begin on Monday; the period is the Monday): birds affected, with the number of
// detections. The US series sums every state. The CSV's columns, as a captured file has them
// (test/official/aphis/, SOURCES.md): State, County, Date Confirmed (M/D/YYYY), Flock Type
// ("Commercial Layer Chickens" for a layer flock), Flock Size ("1,460,030"), CRLF lines; the
// dashboard's newer export's names (Confirmed, Production, Birds Affected; "Commercial Table Egg
// Layer") are read as well.
import type { ObservationInput } from '#server/queries/official.ts';
import { aphisSeriesId, isStateCode, stateCode } from '#shared/official.ts';
import { SourceFailure, type SourceReader } from './source.ts';

/** RFC 4180 rows: quoted fields with "" for a quote, commas and line breaks inside quotes. */
export function csvRows(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      row.push(cell);
      if (row.some((v) => v.trim() !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell);
  if (row.some((v) => v.trim() !== '')) rows.push(row);
  return rows;
}

const COLUMNS = {
  state: ['state'],
  date: ['date confirmed', 'confirmed', 'confirmed date', 'date'],
  type: ['flock type', 'production', 'production type', 'operation type'],
  birds: ['flock size', 'birds affected', 'birds impacted'],
};

/** A date of the CSV (M/D/YYYY, MM-DD-YYYY or YYYY-MM-DD) as YYYY-MM-DD. */
export function aphisDate(raw: string): string | null {
  const value = raw.trim();
  const us = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})/.exec(value);
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : null;
}

/** The Monday of the day's week. */
export function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/**
 * A commercial flock of laying hens for table eggs: "Commercial Layer Chickens" (the captured
 * file's name) or "Commercial Table Egg Layer" (the newer export's); not their breeders, not
 * pullets (hens not yet laying), not backyard flocks.
 */
export function isTableEggLayerFlock(flockType: string): boolean {
  const type = flockType.trim();
  return /^commercial\b/i.test(type) && /\blayers?\b/i.test(type) && !/breeder|pullet/i.test(type);
}

export function parseAphis(body: string): ObservationInput[] {
  const [header, ...rows] = csvRows(body.replace(/^\uFEFF/, ''));
  if (!header) throw new SourceFailure('APHIS answered an empty file');
  const names = header.map((h) => h.trim().toLowerCase());
  const index = (candidates: string[]) => names.findIndex((n) => candidates.includes(n));
  const at = {
    state: index(COLUMNS.state),
    date: index(COLUMNS.date),
    type: index(COLUMNS.type),
    birds: index(COLUMNS.birds),
  };
  if (Object.values(at).some((i) => i < 0))
    throw new SourceFailure(`APHIS's CSV lacks a column it needs (has: ${names.join(', ').slice(0, 300)})`);
  const weeks = new Map<string, { birds: number; detections: number; last: string }>();
  const add = (state: string, week: string, birds: number, day: string) => {
    const key = `${state}|${week}`;
    const entry = weeks.get(key) ?? { birds: 0, detections: 0, last: day };
    entry.birds += birds;
    entry.detections += 1;
    if (day > entry.last) entry.last = day;
    weeks.set(key, entry);
  };
  for (const row of rows) {
    if (!isTableEggLayerFlock(row[at.type] ?? '')) continue;
    const state = stateCode(row[at.state] ?? '');
    const day = aphisDate(row[at.date] ?? '');
    const birds = Number((row[at.birds] ?? '').replace(/[,\s]/g, ''));
    if (!state || !isStateCode(state) || !day || !Number.isFinite(birds) || birds < 0) continue;
    add(state, weekOf(day), birds, day);
    add('US', weekOf(day), birds, day);
  }
  return [...weeks.entries()].map(([key, entry]) => {
    const [state, week] = key.split('|') as [string, string];
    return {
      seriesId: aphisSeriesId(state),
      period: week,
      valueText: String(entry.birds),
      value: entry.birds,
      unit: 'birds affected',
      detail: { detections: entry.detections },
      publishedOn: entry.last,
    };
  });
}

export const aphisReader: SourceReader = {
  source: 'aphis_hpai',
  off: () => null,
  dailyLimit: () => 20,
  async read(ctx) {
    const url = ctx.config.aphis.url;
    const response = await ctx.http.request({ url, headers: { accept: 'text/csv, */*;q=0.5' } }, ctx.signal);
    if (response.status !== 200) {
      await ctx.keep(url, response, 'failed', `HTTP ${response.status}`);
      throw new SourceFailure(`APHIS answered HTTP ${response.status}`);
    }
    let observations: ObservationInput[];
    try {
      observations = parseAphis(response.body);
    } catch (error) {
      await ctx.keep(url, response, 'refused', error instanceof Error ? error.message : String(error));
      throw error;
    }
    const fetchId = await ctx.keep(url, response, 'parsed');
    return { fetchId, observations, summary: `${observations.length} state-weeks of layer flock detections` };
  },
};
