// The data a page asks for first, inlined in its index.html: the dashboard's ticker, statistics,
// store list and first page of prices, the compare page's comparison. The client puts
// them in its query cache before its first render (src/client/lib/initialData.ts), so the page
// paints with its data instead of skeletons that a second render, one round trip later, replaces:
// on a phone that second render of the whole page was the longest task after the first paint.
//
// Only public, cacheable queries of the default view are inlined (a URL with a query string
// carries a view of its own, which the client fetches as before). They are answered from the
// same read cache as the API, so inlining costs a lookup per query once the cache is warm. Should
// a query fail or take longer than INITIAL_DATA_TIMEOUT_MS (the database out of reach, say), the
// page is served without its data and fetches it itself, as it did before.
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { INITIAL_DATA_ELEMENT_ID, type InitialEntry, type InitialQuery } from '#shared/initial-data.ts';
import { PAGE_SIZES } from '#shared/pagination.ts';
import { transformer } from '#shared/transformer.ts';
import { EGG_TYPES, type EggType } from '#shared/vocabulary.ts';
import type { Context } from './context.ts';
import { isCachedQuery, procedureFor } from './procedures.ts';

export const INITIAL_DATA_TIMEOUT_MS = 500;

/**
 * The first queries of the page at pathname, as its components ask for them with the default
 * view (no query string): the frame's news ticker on every page, then the page's own.
 */
export function initialQueries(pathname: string, search: string): InitialQuery[] {
  const queries: InitialQuery[] = [{ path: 'news.ticker' }];
  const defaultView = search === '' || search === '?';
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) {
    queries.push({ path: 'stats.get' }, { path: 'stores.list' });
    // The page size depends on the screen's width: one entry for each.
    if (defaultView) {
      for (const pageSize of new Set(Object.values(PAGE_SIZES))) {
        queries.push({ path: 'prices.dashboard', input: { filters: { ...DEFAULT_FILTERS }, page: 1, pageSize } });
      }
    }
  } else if (
    segments.length === 2 &&
    segments[0]!.toLowerCase() === 'compare' &&
    (EGG_TYPES as readonly string[]).includes(segments[1]!)
  ) {
    // The long-run benchmark (statistics and BLS series) loads when it comes near the screen.
    // Its listing's page size depends on the screen's width too.
    if (defaultView) {
      for (const pageSize of new Set(Object.values(PAGE_SIZES))) {
        queries.push({ path: 'compare.byType', input: { eggType: segments[1] as EggType, page: 1, pageSize } });
      }
    }
  }
  return queries.filter((query) => isCachedQuery(query.path));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`initial data took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Every query's answer, through the procedures (and so their cache). Rejects when any of them
 * fails or the whole takes longer than timeoutMs: the page then goes out without inlined data.
 */
export async function loadInitialData(
  ctx: Context,
  queries: readonly InitialQuery[],
  timeoutMs = INITIAL_DATA_TIMEOUT_MS,
): Promise<InitialEntry[]> {
  const answers = Promise.all(
    queries.map(async (query) => ({
      ...query,
      data: transformer.serialize(await procedureFor(ctx, query.path)(query.input)),
    })),
  );
  return withTimeout(answers, timeoutMs);
}

/**
 * JSON that is safe inside a script element: '<' (so no '</script>' or '<!--' can end or bend the
 * element, whatever a product title holds), '>' and '&' escaped, and the line separators that
 * older JavaScript parsers reject.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** index.html with the entries in a JSON data block (not a script: the CSP allows no inline scripts) before </head>. */
export function withInitialData(indexHtml: Buffer, entries: readonly InitialEntry[]): Buffer {
  const html = indexHtml.toString('utf8');
  const at = html.indexOf('</head>');
  if (at < 0 || entries.length === 0) return indexHtml;
  const block = `    <script type="application/json" id="${INITIAL_DATA_ELEMENT_ID}">${scriptSafeJson(entries)}</script>\n  `;
  return Buffer.from(html.slice(0, at) + block + html.slice(at));
}
