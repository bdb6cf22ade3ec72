// CSV text as spreadsheets and CSV parsers read it: every line break inside a field quoted, and
// no text cell that a spreadsheet would run as a formula.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { numberColumn, textColumn, toCsv } from './csv.ts';
import { pageLinks } from './rest.ts';

interface Row {
  title: string;
  price: number | null;
}
const columns = [textColumn<Row>('title', (r) => r.title), numberColumn<Row>('price', (r) => r.price)];

describe('toCsv', () => {
  it('round-trips titles with a bare line feed, a bare carriage return, CRLF, commas and quotes', () => {
    const titles = ['Large\nBrown Eggs', 'Large\rWhite Eggs', 'Two\r\nLines', 'Eggs, "Grade A", 12 ct', 'plain'];
    const text = toCsv(
      titles.map((title, i) => ({ title, price: i + 0.5 })),
      columns,
    );
    expect(text.split('\r\n')[0]).toBe('title,price');
    // Every field with a line break is quoted (a lenient parser would hide an unquoted one).
    expect(text).toContain('"Large\nBrown Eggs",0.5\r\n');
    expect(text).toContain('"Large\rWhite Eggs",1.5\r\n');
    expect(text.split('\r\n')).toHaveLength(titles.length + 3); // header, rows, the CRLF inside a field, the end
    const rows = parse(text, { columns: true }) as Array<{ title: string; price: string }>;
    expect(rows.map((r) => r.title)).toEqual(titles);
    expect(rows.map((r) => Number(r.price))).toEqual([0.5, 1.5, 2.5, 3.5, 4.5]);
  });

  it('neutralises formula starts in text (ASCII and full-width) and leaves numbers as numbers', () => {
    const titles = ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tTab', '＝1+1', '＋1', '－1', '＠x', 'Eggs'];
    const text = toCsv([...titles.map((title) => ({ title, price: -0.25 })), { title: 'none', price: null }], columns);
    const rows = parse(text, { columns: true }) as Array<{ title: string; price: string }>;
    expect(rows.slice(0, -1).map((r) => r.title)).toEqual([...titles.slice(0, -1).map((t) => `'${t}`), 'Eggs']);
    expect(rows.slice(0, -1).every((r) => r.price === '-0.25')).toBe(true);
    expect(rows.at(-1)!.price).toBe('');
  });
});

describe('pageLinks', () => {
  const rels = (header: string) =>
    Object.fromEntries(
      header.split(', ').map((part) => [/rel="(\w+)"/.exec(part)![1], Number(/offset=(\d+)/.exec(part)![1])]),
    );

  it('links first, prev, next and last on the multiples of the limit', () => {
    expect(rels(pageLinks('/api/egg-prices?region=west&limit=5&offset=5', 13, 5, 5))).toEqual({
      first: 0,
      prev: 0,
      next: 10,
      last: 10,
    });
    expect(rels(pageLinks('/api/egg-prices?limit=5', 13, 5, 0))).toEqual({ first: 0, next: 5, last: 10 });
    expect(rels(pageLinks('/api/egg-prices?limit=5&offset=10', 13, 5, 10))).toEqual({ first: 0, prev: 5, last: 10 });
    expect(pageLinks('/api/egg-prices?region=west&limit=5&offset=5', 13, 5, 5)).toContain('region=west');
  });

  it('keeps an unaligned offset on its own alignment, never past the last page', () => {
    expect(rels(pageLinks('/api/egg-prices?limit=5&offset=7', 13, 5, 7))).toEqual({
      first: 0,
      prev: 2,
      next: 12,
      last: 12,
    });
  });

  it('points prev at the last page when the offset is past the end, and handles no rows', () => {
    expect(rels(pageLinks('/api/egg-prices?limit=5&offset=100', 13, 5, 100))).toEqual({ first: 0, prev: 10, last: 10 });
    expect(rels(pageLinks('/api/egg-prices?limit=5', 0, 5, 0))).toEqual({ first: 0, last: 0 });
  });
});
