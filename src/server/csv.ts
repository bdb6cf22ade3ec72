// CSV downloads of the REST lists (rest.ts): RFC 4180 text (a header row, CRLF line ends, fields
// quoted when they hold a comma, a quote or a line break) written by csv-stringify, UTF-8.
//
// Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one) as
// a formula, so text taken from retailers' pages (a product title) could carry a formula into an
// integrator's spreadsheet. Text cells starting with one of those characters get a leading
// apostrophe, which spreadsheets show as plain text (OWASP's advice on CSV injection). Number
// columns are written as numbers, a negative change included.
import { stringify } from 'csv-stringify/sync';

export interface CsvColumn<Row> {
  header: string;
  kind: 'text' | 'number';
  value: (row: Row) => string | number | null | undefined;
}

export const textColumn = <Row>(header: string, value: (row: Row) => string | null | undefined): CsvColumn<Row> => ({
  header,
  kind: 'text',
  value,
});
export const numberColumn = <Row>(header: string, value: (row: Row) => number | null | undefined): CsvColumn<Row> => ({
  header,
  kind: 'number',
  value,
});

// The full-width forms (＝ ＋ － ＠) too: some spreadsheets read them as the ASCII ones.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A text cell as a spreadsheet will read it: never a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function cell<Row>(column: CsvColumn<Row>, row: Row): string {
  const value = column.value(row);
  if (value === null || value === undefined) return '';
  if (column.kind === 'number') return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  return neutraliseFormula(String(value));
}

/** The rows as CSV, after a header row unless `header` is false (the later parts of a stream). */
export function toCsv<Row>(
  rows: readonly Row[],
  columns: ReadonlyArray<CsvColumn<Row>>,
  { header = true }: { header?: boolean } = {},
): string {
  return stringify(
    rows.map((row) => columns.map((column) => cell(column, row))),
    // With a CRLF record delimiter csv-stringify quotes only fields holding CRLF; a bare LF or CR
    // (a scraped title can hold one) must be quoted too, or it splits the row.
    { header, columns: columns.map((column) => column.header), record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}

/** A Content-Disposition filename: letters, digits, dots, dashes and underscores only. */
export function safeFilename(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  return `${cleaned || 'download'}`.slice(0, 120);
}
