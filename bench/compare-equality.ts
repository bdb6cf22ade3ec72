// Checks compareByType (precomputed figures and the (product_id, price, id) index) against the
// implementation that reads every visible entry (test/compare-reference.ts)
// for every egg type x region x pack size, on pages 1, 2 and past the end, and times both.
// Usage: DATABASE_URL=postgres://.../eggwatch_bench_nationwide_15000x7 npx tsx bench/compare-equality.ts
import { isDeepStrictEqual } from 'node:util';
import { createSql } from '../src/server/db.ts';
import { EGG_TYPES, REGIONS } from '../src/shared/vocabulary.ts';
import { compareByType } from '../src/server/queries/compare.ts';
import { compareByType as reference } from '../test/compare-reference.ts';

const sql = createSql(process.env.DATABASE_URL!, { max: 4 });
let checked = 0;
let failed = 0;
let newMs = 0;
let oldMs = 0;
// Page 1 of every combination first, then the others.
for (const paging of [
  { page: 1, pageSize: 9 },
  { page: 2, pageSize: 10 },
  { page: 100000, pageSize: 25 },
]) {
  for (const eggType of EGG_TYPES) {
    const counts = (
      await sql<{ count: number }[]>`select distinct count from products where egg_type = ${eggType} order by 1`
    ).map((r) => r.count);
    console.log('checking', JSON.stringify(paging), eggType, `(${checked} checked, ${failed} differing so far)`);
    for (const region of [undefined, ...REGIONS]) {
      for (const count of [undefined, ...counts]) {
        {
          const filters = { eggType, region, count };
          let t = performance.now();
          const a = await compareByType(sql, filters, paging);
          newMs += performance.now() - t;
          t = performance.now();
          const b = await reference(sql, filters, paging);
          oldMs += performance.now() - t;
          checked++;
          if (!isDeepStrictEqual(a, b)) {
            failed++;
            if (failed <= 5) {
              for (const key of Object.keys(b) as Array<keyof typeof b>) {
                if (!isDeepStrictEqual(a[key], b[key]))
                  console.log(
                    'DIFF',
                    JSON.stringify(filters),
                    JSON.stringify(paging),
                    key,
                    JSON.stringify(a[key]).slice(0, 600),
                    '\n  vs',
                    JSON.stringify(b[key]).slice(0, 600),
                  );
              }
            }
          }
        }
      }
    }
  }
}
console.log(
  `checked ${checked}, differing ${failed}; new ${newMs.toFixed(0)} ms, reference ${oldMs.toFixed(0)} ms in all`,
);
await sql.end();
