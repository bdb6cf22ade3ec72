// The ZIP list every input takes (a manual scrape run, a coverage scope): each entry trimmed,
// empties dropped, duplicates removed (first kept); each must be five digits of a US state; at
// least one and at most `max`. The messages name every bad entry.
import { z } from 'zod';
import { zipToRegion } from './zip.ts';

export function zipListSchema(options: { max: number; tooMany: (given: number) => string }) {
  return (
    z
      .array(z.string({ message: 'each ZIP code must be a string' }).max(64, 'a ZIP code is at most 64 characters'), {
        message: 'zipCodes must be a list of ZIP codes',
      })
      // Duplicates and empties are dropped before the count, so the raw list may be longer.
      .max(options.max * 8, 'zipCodes: too many entries')
      .transform((list, ctx) => {
        const zips = [...new Set(list.map((zip) => zip.trim()).filter((zip) => zip !== ''))];
        const bad = zips.filter((zip) => !/^\d{5}$/.test(zip));
        if (bad.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `Not 5-digit ZIP codes: ${bad.map((s) => JSON.stringify(s)).join(', ')}`,
          });
          return z.NEVER;
        }
        const outside = zips.filter((zip) => zipToRegion(zip) === null);
        if (outside.length > 0) {
          ctx.addIssue({ code: 'custom', message: `Not ZIP codes of a US state: ${outside.join(', ')}` });
          return z.NEVER;
        }
        if (zips.length === 0) {
          ctx.addIssue({ code: 'custom', message: 'Enter at least one ZIP code' });
          return z.NEVER;
        }
        if (zips.length > options.max) {
          ctx.addIssue({ code: 'custom', message: options.tooMany(zips.length) });
          return z.NEVER;
        }
        return zips;
      })
  );
}
