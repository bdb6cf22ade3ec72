// CSV downloads of the REST lists (`<path>.csv` of a route that declares CSV columns): RFC 4180
// text (a header row, CRLF line ends, fields quoted when they hold a comma, a quote or a line
// break) written by csv-stringify, UTF-8; the two price lists' downloads streamed in batches.
//
// Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one) as
// a formula, so text taken from retailers' pages (a product title) could carry a formula into an
// integrator's spreadsheet. Text cells starting with one of those characters get a leading
// apostrophe, which spreadsheets show as plain text (OWASP's advice on CSV injection). Number
// columns are written as numbers, a negative change included.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { pageHeaders, type Page } from './paging.ts';
import type { Call, CsvStream, RequestParts } from './route.ts';

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

/** Tells this process's answers apart from another's (or an earlier run's) with the same data version. */
const BOOT_ID = crypto.randomBytes(6).toString('base64url');

/**
 * A list's CSV streamed in batches: validated and counted first (an error still answers JSON with
 * its status), then a header row and each batch as the client reads (Readable.from pulls the next
 * batch only when the socket wants more), so memory stays flat however many rows match and however
 * slowly they are read. Its ETag names the data version, so revalidation costs no query.
 */
export async function streamCsv(
  stream: CsvStream,
  {
    req,
    reply,
    call,
    ctx,
    parts,
    page,
    headers: routeHeaders,
  }: {
    req: FastifyRequest;
    reply: FastifyReply;
    call: Call;
    ctx: Context;
    parts: RequestParts;
    page: Page;
    /** The route's own headers (CORS, Cache-Control). */
    headers: Record<string, string>;
  },
) {
  // The data version changes with every change of prices this process hears of; the minute bounds
  // it like the cache's own expiry. Without a cache (no notifications) there is no ETag.
  const etag = ctx.cache.enabled
    ? `W/"${BOOT_ID}.${ctx.cache.version}.${Math.floor(Date.now() / 60_000)}.${crypto.createHash('sha256').update(req.url).digest('base64url').slice(0, 16)}"`
    : null;
  const headers: Record<string, string> = {
    ...routeHeaders,
    ...(etag ? { etag } : {}),
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${safeFilename(stream.filename(parts))}"`,
  };
  if (etag && req.headers['if-none-match'] === etag)
    return reply.headers({ etag, 'cache-control': routeHeaders['cache-control'] }).code(304).send();
  const { total, batches } = await stream.open({ call, ctx, parts });
  Object.assign(headers, pageHeaders(req.url, total, page));
  const iterator = batches[Symbol.asyncIterator]();
  // The first batch before the headers: a database that fails now still gets its JSON answer.
  const first = await iterator.next();
  const columns = stream.columns;
  async function* body() {
    yield toCsv(first.done ? [] : (first.value as never[]), columns);
    if (first.done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield toCsv(next.value as never[], columns, { header: false });
  }
  const readable = Readable.from(body());
  readable.on('error', (error) => req.log.warn({ err: error }, `${req.url.split('?')[0]}: the download stopped`));
  return reply.headers(headers).send(readable);
}
