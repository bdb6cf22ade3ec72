// The BLS egg series of data/ (real published values; data/SOURCES.md) as the stand-in's world:
// series id -> month (YYYY-MM) -> the value as BLS spells it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');

export type BlsWorld = Map<string, Map<string, string>>;

export function loadBlsData(): BlsWorld {
  const world: BlsWorld = new Map();
  const add = (series: string, year: string, month: string, value: string) => {
    if (!world.has(series)) world.set(series, new Map());
    world.get(series)!.set(`${year}-${month.padStart(2, '0')}`, Number(value).toFixed(3));
  };
  for (const line of fs.readFileSync(path.join(DATA, 'bls_egg_prices.csv'), 'utf8').trim().split('\n').slice(1)) {
    const [series, , year, month, value] = line.split(',');
    add(series!, year!, month!, value!);
  }
  for (const line of fs
    .readFileSync(path.join(DATA, 'bls_egg_prices_other_series.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)) {
    const cells = line.split(',');
    const [year, month, value] = cells.slice(-3);
    add(cells[0]!, year!, month!, value!);
  }
  return world;
}
