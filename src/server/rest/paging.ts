// The one paging rule of every REST list (docs/decisions/002-rest-adapter.md): `limit` 1 to
// MAX_LIST_LIMIT and `offset` 0 or more, validated by the same schema as the procedures' (a limit
// over the maximum is a 400 that names it, on every path); a page asked without a limit holds the
// list's default number of items; every answer says how many items match (X-Total-Count) and links
// the first, previous, next and last pages (Link, RFC 8288).
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { DEFAULT_LIST_LIMIT, listLimit, listOffset } from '#shared/inputs.ts';
import type { RestList } from './route.ts';

const pagingInput = z.object({ limit: listLimit.optional(), offset: listOffset.optional() });

export interface Page {
  /** Undefined only for a streamed CSV asked without limit: every row. */
  limit: number | undefined;
  offset: number;
}

/** The input as the schema reads it, or the 400 the procedure would answer. */
export function parsed<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid input', cause: result.error });
  return result.data;
}

/** The page a list's request asks for; `everything` when no limit means every row (a streamed CSV). */
export function pageOf(list: RestList, query: Record<string, unknown>, { everything = false } = {}): Page {
  const { limit, offset = 0 } = parsed(pagingInput, { limit: query.limit, offset: query.offset });
  return { limit: limit ?? (everything ? undefined : defaultLimit(list)), offset };
}

export const defaultLimit = (list: RestList): number => list.defaultLimit ?? DEFAULT_LIST_LIMIT;

/** The query without the paging parameters. */
export function withoutPaging(query: Record<string, unknown>): Record<string, unknown> {
  const { limit: _limit, offset: _offset, ...rest } = query;
  return rest;
}

/** RFC 8288 links to the first, previous, next and last pages, keeping the rest of the query. */
export function pageLinks(url: string, total: number, limit: number, offset: number): string {
  const [pathname = '', search = ''] = url.split('?');
  const link = (pageOffset: number, rel: string) => {
    const params = new URLSearchParams(search);
    params.set('limit', String(limit));
    params.set('offset', String(pageOffset));
    return `<${pathname}?${params.toString()}>; rel="${rel}"`;
  };
  // The last page on the same alignment as the offset asked for (7, 12 for limit 5 from 7), or
  // on multiples of the limit when the offset is past the end.
  const last =
    total === 0
      ? 0
      : offset < total
        ? offset + Math.floor((total - 1 - offset) / limit) * limit
        : Math.floor((total - 1) / limit) * limit;
  return [
    link(0, 'first'),
    ...(offset > 0 ? [link(Math.min(Math.max(0, offset - limit), last), 'prev')] : []),
    ...(offset + limit < total ? [link(offset + limit, 'next')] : []),
    link(last, 'last'),
  ].join(', ');
}

/** The paging headers of a page of `total` items. */
export function pageHeaders(url: string, total: number, page: Page): Record<string, string> {
  return {
    'x-total-count': String(total),
    ...(page.limit !== undefined ? { link: pageLinks(url, total, page.limit, page.offset) } : {}),
  };
}
