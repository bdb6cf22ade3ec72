// The BLS Public Data API v2 (https://www.bls.gov/developers/api_signature_v2.htm): one POST asks
// for every current egg series over the last three years (a month's value can be revised within
// them). Keyless, BLS allows 25 requests a day per address; the worker asks twice a day.
//
// The answer's envelope decides, not the HTTP status: BLS answers a refusal (its daily threshold
// reached, a bad key) with HTTP 200 and "status": "REQUEST_NOT_PROCESSED", the reason in
// `message`. Values are strings, newest first; "-" (or an absent month) is a month BLS did not
// publish: no figure, never a zero. M13 (an annual average) is not a month. Bodies the parser was
// proven against: test/official/bls/ (SOURCES.md there).
import { z } from 'zod';
import { heldBenchmarkMonths, type ObservationInput } from '#server/queries/official.ts';
import { BLS_SERIES } from '#shared/official.ts';
import { NotBefore } from './http.ts';
import { SourceFailure, type SourceReader } from './source.ts';

const blsAnswer = z.object({
  status: z.string(),
  message: z.array(z.string()).optional().default([]),
  Results: z
    .union([
      z.object({
        series: z
          .array(
            z.object({
              seriesID: z.string(),
              data: z
                .array(
                  z.object({
                    year: z.string(),
                    period: z.string(),
                    value: z.string(),
                    latest: z.string().optional(),
                  }),
                )
                .default([]),
            }),
          )
          .default([]),
      }),
      z.array(z.unknown()),
    ])
    .optional(),
});

export const BLS_UNIT = 'USD per dozen';

/** The figures of a BLS answer, or a SourceFailure/NotBefore for a refusal. */
export function parseBls(body: string, now: Date): ObservationInput[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new SourceFailure('BLS answered something that is not JSON');
  }
  const parsed = blsAnswer.safeParse(json);
  if (!parsed.success) throw new SourceFailure('BLS answered JSON of an unknown shape');
  const answer = parsed.data;
  if (answer.status !== 'REQUEST_SUCCEEDED') {
    const reason = answer.message.join(' ').trim() || answer.status;
    if (/threshold|limit|exceed/i.test(reason))
      throw new NotBefore(
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
        `BLS refused: ${reason}`,
      );
    throw new SourceFailure(`BLS refused: ${reason}`);
  }
  const series = answer.Results && !Array.isArray(answer.Results) ? answer.Results.series : [];
  const out: ObservationInput[] = [];
  for (const s of series) {
    if (!BLS_SERIES.some((known) => known.id === s.seriesID)) continue;
    for (const d of s.data) {
      const month = /^M(0[1-9]|1[0-2])$/.exec(d.period)?.[1];
      if (!month || !/^\d{4}$/.test(d.year)) continue;
      const text = d.value.trim();
      if (!/^\d+(\.\d+)?$/.test(text)) continue; // "-": not published
      const value = Number(text);
      if (!(value > 0)) continue;
      out.push({ seriesId: s.seriesID, period: `${d.year}-${month}-01`, valueText: text, value, unit: BLS_UNIT });
    }
  }
  return out;
}

/** October 2025 was never published: a month after it counts as following the month before it. */
function gapBefore(o: ObservationInput, held: Set<string>): boolean {
  return o.period === '2025-11-01' && held.has(`${o.seriesId}|2025-09-01`);
}

export const blsReader: SourceReader = {
  source: 'bls',
  off: () => null,
  dailyLimit: (config) => (config.bls.apiKey ? 450 : 20),
  async read(ctx) {
    const url = `${ctx.config.bls.origin}/publicAPI/v2/timeseries/data/`;
    const year = ctx.now.getUTCFullYear();
    const seriesid = BLS_SERIES.filter((s) => s.current).map((s) => s.id);
    const response = await ctx.http.request(
      {
        url,
        method: 'POST',
        json: {
          seriesid,
          startyear: String(year - 2),
          endyear: String(year),
          ...(ctx.config.bls.apiKey ? { registrationkey: ctx.config.bls.apiKey } : {}),
        },
      },
      ctx.signal,
    );
    if (response.status !== 200) {
      await ctx.keep(url, response, 'failed', `HTTP ${response.status}`);
      throw new SourceFailure(`BLS answered HTTP ${response.status}`);
    }
    let observations: ObservationInput[];
    try {
      observations = parseBls(response.body, ctx.now);
    } catch (error) {
      await ctx.keep(url, response, 'refused', error instanceof Error ? error.message : String(error));
      throw error;
    }
    const fetchId = await ctx.keep(url, response, 'parsed');
    // BLS gives no release day. A month is dated the day it was first read when the month before
    // it was held already (the worker asks twice a day, so that is within a day of the release);
    // a month first read after a gap in what was held (the first fetch, say) has no known day.
    const held = await heldBenchmarkMonths(ctx.sql, seriesid);
    const anyHeld = new Set(held.map((h) => h.key));
    const officialHeld = new Set(held.filter((h) => h.official).map((h) => h.key));
    const today = ctx.now.toISOString().slice(0, 10);
    const monthBefore = (period: string) => {
      const [y, m] = period.split('-').map(Number) as [number, number];
      return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
    };
    for (const o of observations) {
      const key = `${o.seriesId}|${o.period}`;
      const follows = anyHeld.has(`${o.seriesId}|${monthBefore(o.period)}`) || gapBefore(o, anyHeld);
      // (a revision is dated the day it was read; a month only the seed held has no known day)
      o.publishedOn = officialHeld.has(key) || (!anyHeld.has(key) && follows) ? today : null;
    }
    return { fetchId, observations, summary: `${observations.length} monthly figures of ${seriesid.length} series` };
  },
};
