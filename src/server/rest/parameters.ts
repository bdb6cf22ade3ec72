// The parameters of each REST path as the OpenAPI document states them and the handler holds
// requests to them: a parameter's name means the same thing on every path (its description and
// accepted values are written once, here), its schema is the procedure's own, and a request with
// a parameter the path does not take, or without one it requires, is a 400 naming it and what the
// path takes. A parameter without a description is an error at start-up, so the document cannot
// leave one out.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { listLimit, listOffset, MAX_LIST_LIMIT } from '#shared/inputs.ts';
import { HISTORY_SPANS, NEAR_RADII } from '#shared/near.ts';
import { STATE_REGIONS } from '#shared/zip.ts';
import { EGG_TYPE_SLUGS, EGG_TYPES, REGIONS, STORE_IDS } from '#shared/vocabulary.ts';
import { appRouter } from '../routers/_app.ts';
import { defaultLimit } from './paging.ts';
import type { RestRoute } from './route.ts';

type Values = ReadonlyArray<string | number>;

interface QueryParameterDoc {
  description: string;
  /** The values it takes, when they are a fixed set the schema does not list itself ('all' is added where accepted). */
  values?: Values;
}

const EGG_TYPE_SPELLINGS = [...new Set([...EGG_TYPES, ...Object.values(EGG_TYPE_SLUGS)])];
const STATES = Object.keys(STATE_REGIONS).sort();

/** Every query parameter of the API, by name. */
const QUERY_PARAMETERS: Record<string, QueryParameterDoc> = {
  store: { description: "A store's id; an unknown store answers 404", values: STORE_IDS },
  region: { description: 'A census region', values: REGIONS },
  egg_type: {
    description: 'An egg type, in either spelling (cage_free or cage-free) and any case',
    values: EGG_TYPE_SPELLINGS,
  },
  count: { description: 'Eggs in the pack (12 for a dozen)' },
  limit: {
    description: `Items in the page: 1 to ${MAX_LIST_LIMIT} (more is refused with a 400). See X-Total-Count and Link for the rest`,
  },
  offset: { description: 'Items to skip before the page, in the list order' },
  zip: { description: 'A 5-digit ZIP code of a US state (ZIP+4 accepted: its first five digits count)' },
  radius: { description: 'Miles around the ZIP code', values: NEAR_RADII },
  days: { description: 'The span in UTC days, ending today', values: HISTORY_SPANS },
  location: { description: "A store location's id (location_id of a price entry)" },
  state: { description: 'A two-letter state code (or DC), any case', values: STATES },
  from: {
    description:
      'The first period of the series: a month like 2016-01 (/market-prices) or a day like 2026-01-01 (/official/series)',
  },
  to: { description: 'The last period of the series, a day like 2026-12-31 (/official/series)' },
  token: { description: 'The token of an email link' },
};

/** The limit's description on a list whose page without limit is not DEFAULT_LIST_LIMIT, or whose CSV is streamed. */
function limitDescription(route: RestRoute, csv: boolean): string {
  const list = route.list!;
  const whole = csv && route.csvStream ? 'every matching row (streamed)' : `the first ${defaultLimit(list)}`;
  return `${QUERY_PARAMETERS.limit!.description}. Without it, ${whole}`;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
}

type JsonSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[]; anyOf?: JsonSchema[] };

const jsonSchema = (schema: z.ZodType): JsonSchema => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return json.anyOf?.find((branch) => branch.properties) ?? json;
};

/** The procedure's input as one JSON Schema object (chained .input() calls merge). */
function procedureInput(path: string): JsonSchema {
  const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: { inputs: unknown[] } }> })
    .procedures;
  const parts = (procedures[path]?._def.inputs ?? [])
    .filter((input): input is z.ZodType => input instanceof z.ZodType)
    .map(jsonSchema);
  return {
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
    required: parts.flatMap((part) => part.required ?? []),
  };
}

/** Whether the schema accepts the value (an enum's member, or 'all' for a filter that takes it). */
const accepts = (schema: z.ZodType | undefined, value: unknown) => schema?.safeParse(value).success ?? false;

const memo = new Map<string, Parameter[]>();

/**
 * The path's parameters: its path parameters, then its query parameters (with limit and offset
 * on a list cut by the adapter). `csv` for its CSV sibling, whose limit may differ.
 */
export function parametersOf(route: RestRoute, { csv = false } = {}): Parameter[] {
  const key = `${route.method} ${route.path} ${csv}`;
  const known = memo.get(key);
  if (known) return known;
  const where = `${route.method} /api${route.path}`;
  const input = procedureInput(route.procedure);
  const parameters: Parameter[] = [];
  for (const name of route.path.match(/:\w+/g)?.map((param) => param.slice(1)) ?? []) {
    const description = route.params?.[name];
    if (!description) throw new Error(`${where}: path parameter ${name} has no description`);
    parameters.push({
      name,
      in: 'path',
      required: true,
      description,
      schema: input.properties?.[name] ?? { type: 'string' },
    });
  }
  const query = route.query ?? z.object({});
  const shape: Record<string, z.ZodType> = { ...query.shape };
  if (route.list && !route.list.total)
    Object.assign(shape, { limit: listLimit.optional(), offset: listOffset.optional() });
  const schema = jsonSchema(z.object(shape));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const doc = QUERY_PARAMETERS[name];
    if (!doc) throw new Error(`${where}: query parameter ${name} has no description (rest/parameters.ts)`);
    const field = shape[name];
    const values = property.enum
      ? undefined
      : doc.values && [...doc.values, ...(accepts(field, 'all') ? ['all'] : [])].filter((v) => accepts(field, v));
    parameters.push({
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      description: name === 'limit' && route.list ? limitDescription(route, csv) : doc.description,
      schema: {
        ...property,
        ...(values?.length ? { enum: values } : {}),
        ...(name === 'limit' && route.list && !(csv && route.csvStream) ? { default: defaultLimit(route.list) } : {}),
      },
    });
  }
  memo.set(key, parameters);
  return parameters;
}

/** The path's parameters in words, e.g. "zip, radius, egg_type, count, limit and offset". */
function listed(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

/**
 * Refuses a query parameter the path does not take and a missing required one, with a 400 that
 * names it and what the path takes (the procedure's own check would say "Unrecognized key" or
 * "must be a number").
 */
export function checkQuery(route: RestRoute, query: Record<string, unknown>, { csv = false } = {}): void {
  const parameters = parametersOf(route, { csv }).filter((parameter) => parameter.in === 'query');
  const names = parameters.map((parameter) => parameter.name);
  const takes = names.length ? `it takes ${listed(names)}` : 'it takes no query parameters';
  const where = `${route.method} /api${route.path}${csv ? '.csv' : ''}`;
  for (const name of Object.keys(query)) {
    if (!names.includes(name))
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `Unknown parameter '${name.slice(0, 40)}' of ${where}: ${takes}`,
      });
  }
  for (const parameter of parameters) {
    if (parameter.required && query[parameter.name] === undefined)
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `${parameter.name} is required: ${parameter.description.charAt(0).toLowerCase()}${parameter.description.slice(1)}`,
      });
  }
}

const bodyFields = new Map<RestRoute, string[] | null>();

/** The fields a strict JSON body takes, or null when it takes others too (they are dropped). */
function strictFields(route: RestRoute): string[] | null {
  if (!bodyFields.has(route)) {
    const schema = route.body
      ? (z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema & {
          additionalProperties?: unknown;
        })
      : null;
    bodyFields.set(route, schema?.additionalProperties === false ? Object.keys(schema.properties ?? {}) : null);
  }
  return bodyFields.get(route)!;
}

/** Refuses a field a strict JSON body does not take, naming the fields it does. */
export function checkBody(route: RestRoute, body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const names = strictFields(route);
  if (!names) return;
  for (const name of Object.keys(body)) {
    if (!names.includes(name))
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `Unknown field '${name.slice(0, 40)}' of ${route.method} /api${route.path}: the body takes ${listed(names)}`,
      });
  }
}
