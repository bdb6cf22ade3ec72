// One row of the REST table (docs/decisions/002-rest-adapter.md): a path and method, the tRPC
// procedure that answers it, the parameters it takes and the answer it documents. The row is the
// only description of the path: the handler serves it, the OpenAPI document is made from it, and
// `route` checks at compile time that its response schema describes what its procedure answers.
import type { inferRouterOutputs } from '@trpc/server';
import type { z } from 'zod';
import type { AppRouter } from '../routers/_app.ts';
import type { Context } from '../context.ts';
import type { CsvColumn } from './csv.ts';

export interface RequestParts {
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
}
export type Call = (procedure: string, input: unknown) => Promise<unknown>;

type Outputs = inferRouterOutputs<AppRouter>;

/** Every procedure by its dotted path, e.g. 'prices.list'. */
export type ProcedurePath = {
  [R in keyof Outputs & string]: `${R}.${keyof Outputs[R] & string}`;
}[keyof Outputs & string];

export type OutputOf<P extends ProcedurePath> = P extends `${infer R}.${infer N}`
  ? R extends keyof Outputs
    ? N extends keyof Outputs[R]
      ? Outputs[R][N]
      : never
    : never
  : never;

/** A value as JSON.stringify sends it: a date as its ISO string. */
export type Sent<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer Item>
    ? Array<Sent<Item>>
    : T extends object
      ? { [K in keyof T]: Sent<T[K]> }
      : T;

/** A route's CSV download: its rows, their columns and the file's name, from the procedure's answer. */
export interface CsvExport {
  rows: (result: unknown) => readonly unknown[];
  columns: ReadonlyArray<CsvColumn<never>>;
  filename: (result: unknown, parts: RequestParts) => string;
}

/**
 * A list downloaded as CSV in batches (constant memory whatever its size) instead of from the
 * procedure's whole answer: `open` validates the request as the procedure would (throwing the same
 * errors), counts the matching rows and answers the batches. Asked without `limit`, it holds every
 * matching row.
 */
export interface CsvStream {
  open: (request: {
    call: Call;
    ctx: Context;
    parts: RequestParts;
  }) => Promise<{ total: number; batches: AsyncIterable<readonly unknown[]> }>;
  columns: ReadonlyArray<CsvColumn<never>>;
  filename: (parts: RequestParts) => string;
}

/**
 * A list: paged with limit and offset, with X-Total-Count and Link, like every list
 * (docs/decisions/002-rest-adapter.md).
 */
export interface RestList {
  /** The answer's field that holds the items, when the answer is not the list itself. */
  field?: string;
  /** Items of a page asked without limit, when fewer than DEFAULT_LIST_LIMIT. */
  defaultLimit?: number;
  /**
   * Paged by the procedure, whose input takes limit and offset: how many items match before them
   * (input is the procedure's input without limit and offset). Without it the procedure answers
   * the whole list and the adapter cuts the page.
   */
  total?: (answer: { result: unknown; input: Record<string, unknown>; call: Call }) => number | Promise<number>;
}

/** The statuses a route documents beyond those every route of its kind answers (see openapi.ts). */
export type RouteErrors = Partial<Record<401 | 403 | 404 | 409 | 429, string>>;

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path under /api, e.g. /stores/:storeId */
  path: string;
  summary: string;
  /** The tRPC procedure that answers; its input is the query (or the JSON body) with the path's parameters. */
  procedure: ProcedurePath;
  /** The query parameters, as the procedure validates them (limit and offset of a list cut by the adapter are added). */
  query?: z.ZodObject;
  /** What each path parameter is. */
  params?: Record<string, string>;
  /** The JSON body, as the procedure validates it. */
  body?: z.ZodType;
  /** The answer of a success (the list's page, for a list). */
  response: z.ZodType;
  /** Status of a success (200 unless given). */
  status?: 200 | 201 | 202;
  /**
   * With status 201, the answers that created something; any other is sent with 200 (documented
   * as such), like a subscription asked for again with the same settings.
   */
  created?: { when: (answer: unknown) => boolean; otherwise: string };
  /** Needs a session (cookie or Bearer token). */
  auth?: 'user' | 'admin';
  /**
   * A GET without a session that still answers someone's personal data (an unsubscribe link's
   * address): not opened to other sites by CORS, not counted as open data.
   */
  private?: boolean;
  list?: RestList;
  /** Also served as CSV at the same path plus `.csv`, with the same input and validation. */
  csv?: CsvExport;
  /** Its CSV is streamed in batches (see CsvStream), overriding csv's rows. */
  csvStream?: CsvStream;
  errors?: RouteErrors;
}

/** A read open to everyone: no session, nobody's personal data. */
export const isPublic = (route: RestRoute): boolean => route.method === 'GET' && !route.auth && !route.private;

/** Whether every answer of the procedure fits the schema, as far as types say: if not, the reason. */
type Describes<Answer, Documented> = [Answer] extends [Documented]
  ? unknown
  : { response: { 'the response schema does not describe what the procedure answers': Answer } };

/**
 * A row of the table, checked: its response schema must accept every answer its procedure's type
 * allows (a field renamed or retyped in the procedure and not in the document fails to compile).
 * The contract test (contract.test.ts) holds the answers themselves to the document.
 */
export function route<P extends ProcedurePath, S extends z.ZodType>(
  spec: Omit<RestRoute, 'procedure' | 'response' | 'created'> & {
    procedure: P;
    response: S;
    created?: { when: (answer: OutputOf<P>) => boolean; otherwise: string };
  } & Describes<Sent<OutputOf<P>>, z.input<S>>,
): RestRoute {
  // Only a JSON write that can create answers 200 otherwise (the handler's direct path).
  if (spec.created && (spec.status !== 201 || spec.method === 'GET' || spec.list || spec.csv || spec.csvStream))
    throw new Error(`${spec.method} ${spec.path}: created needs status 201 on a write that is no list and no CSV`);
  return spec as RestRoute;
}

/** Typed at the route, erased in the table. */
export function csvExport<Result, Row>(spec: {
  rows: (result: Result) => readonly Row[];
  columns: ReadonlyArray<CsvColumn<Row>>;
  filename: (result: Result, parts: RequestParts) => string;
}): CsvExport {
  return spec as unknown as CsvExport;
}
