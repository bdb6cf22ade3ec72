// CSV text as spreadsheets and CSV parsers read it: every line break inside a field quoted, and
// no text cell that a spreadsheet would run as a formula.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { numberColumn, textColumn, toCsv } from './csv.ts';

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
