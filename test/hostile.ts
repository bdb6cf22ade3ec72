// Hostile input for the property campaign (src/server/hostile.test.ts): arbitraries built from a
// route's own zod schema (through its JSON Schema), then bent out of shape: wrong types, missing
// and extra fields, prototype keys, unicode edge cases, SQL and HTML metacharacters, absurd
// numbers, huge and deeply nested values. Also the route enumeration of a Fastify instance.
import http from 'node:http';
import fc from 'fast-check';
import { z } from 'zod';
import type { Sql } from '../src/server/db.ts';

/** Runs per route: small in the fast vitest slice, HOSTILE_RUNS for the campaign (npm run bench:hostile). */
export const RUNS = Math.max(1, Number.parseInt(process.env.HOSTILE_RUNS ?? '', 10) || 6);
/** Per-test time limit, growing with the runs (a busy two-core machine included). */
export const TIMEOUT = 60_000 + RUNS * 5_000;

export const SQL_AND_HTML = [
  "' OR '1'='1",
  "'; drop table users; --",
  '"; select pg_sleep(1); --',
  '\\',
  '%',
  '_',
  '$1',
  '${7*7}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '&amp;&lt;&#x3c;',
  '</textarea><b>x</b>',
  'javascript:alert(1)',
];

export const UNICODE = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  'a\uD83Db',
  '\uFEFF',
  '\u202E',
  '\u200B',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '𝕏'.repeat(300),
  'İı',
  'ß'.repeat(40),
  '\r\n\t\v\f',
  ' '.repeat(300),
];

export const ABSURD_NUMBERS = [
  NaN,
  Infinity,
  -Infinity,
  1e308,
  -1e308,
  5e-324,
  -0,
  -1,
  -2147483649,
  2147483648,
  2 ** 53 + 1,
  0.1,
  1e21,
];
export const ABSURD_NUMBER_TEXTS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '1e309',
  '-1',
  '0x10',
  '1_000',
  '',
  ' ',
  '00012',
  '1.5',
  '9'.repeat(400),
  '-0',
  '+1',
  '1e-400',
];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** An object whose own keys are prototype names (as JSON.parse would make them). */
const protoObject = fc
  .constantFrom(...PROTO_KEYS)
  .map((key) => JSON.parse(`{"${key}":{"polluted":"yes","prototype":{"polluted":"yes"}}}`) as Record<string, unknown>);

/** Nested arrays or objects `depth` levels deep, as JSON text (too deep to build as a value safely). */
export function deepJson(depth: number, kind: 'array' | 'object' = 'array'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SQL_AND_HTML, ...UNICODE, ...ABSURD_NUMBER_TEXTS, ...PROTO_KEYS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc
    .tuple(fc.constantFrom('x', '<', 'é', '\u0000'), fc.integer({ min: 200, max: 20_000 }))
    .map(([c, n]) => c.repeat(n)),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...ABSURD_NUMBERS),
  fc.double(),
  fc.integer(),
);

/** Any JSON-ish value, hostile leaves included. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.constantFrom(null, true, false, undefined),
    protoObject,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...PROTO_KEYS)), tie('value'), { maxKeys: 4 }),
  ),
})).value;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: JsonSchema | boolean;
};

/** A value that a JSON Schema (from z.toJSONSchema) accepts, as far as its simple keywords say. */
export function fromJsonSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return hostileValue;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return fc.oneof(...union.map((s) => fromJsonSchema(s, depth + 1)));
  if (schema.allOf?.length) return fromJsonSchema(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
        } catch {
          return fc.string();
        }
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 60) });
    }
    case 'integer':
      return fc.integer({
        min: Math.ceil(schema.minimum ?? schema.exclusiveMinimum ?? -1000),
        max: Math.floor(schema.maximum ?? schema.exclusiveMaximum ?? 100_000),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromJsonSchema(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 8),
      });
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      return fc.record(Object.fromEntries(properties.map(([name, s]) => [name, fromJsonSchema(s, depth + 1)])), {
        requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
      });
    }
    default:
      return hostileValue;
  }
}

export function jsonSchemaOf(schemas: readonly unknown[]): JsonSchema | undefined {
  const parts = schemas
    .filter((s): s is z.ZodType => s instanceof z.ZodType)
    .map((s) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
    .map((s) => s.anyOf?.find((branch) => branch.type === 'object') ?? s);
  if (!parts.length) return undefined;
  if (parts.length === 1) return parts[0];
  // Chained .input() calls merge their objects.
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
}

/** A schema-shaped value bent out of shape: a field replaced, dropped or added, or no shape at all. */
export function hostileInput(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const valid = fromJsonSchema(schema);
  const mutated = fc
    .tuple(
      valid,
      fc.nat(),
      hostileValue,
      fc.constantFrom('replace', 'drop', 'extra', 'proto'),
      fc.oneof(hostileString, fc.constantFrom(...PROTO_KEYS)),
    )
    .map(([value, index, bad, how, extraKey]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return bad;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const key = keys.length ? keys[index % keys.length]! : extraKey;
      if (how === 'replace') copy[key] = bad;
      else if (how === 'drop') delete copy[key];
      else if (how === 'extra')
        Object.defineProperty(copy, extraKey, { value: bad, enumerable: true, configurable: true, writable: true });
      else
        return Object.assign(
          JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}') as object,
          copy,
        );
      return copy;
    });
  return fc.oneof(
    { weight: 1, arbitrary: valid },
    { weight: 4, arbitrary: mutated },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** Percent-encodes every byte of the string's UTF-8 (lone surrogates become U+FFFD, as in a browser). */
export function encodeComponent(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
}

/** A query string for an input object: arrays repeat the key, objects use brackets, raw junk now and then. */
export function toQueryString(input: unknown, junk: string | null): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else pairs.push(`${encodeComponent(key)}=${encodeComponent(String(value))}`);
  };
  if (input && typeof input === 'object' && !Array.isArray(input))
    for (const [k, v] of Object.entries(input)) add(k, v);
  else if (input !== undefined) add('input', input);
  if (junk !== null) pairs.push(junk);
  return pairs.join('&');
}

/** Raw query-string junk: broken escapes, invalid UTF-8 bytes, prototype paths. */
export const queryJunk: fc.Arbitrary<string | null> = fc.option(
  fc.constantFrom(
    '%',
    '%zz',
    '%ff%fe%fd',
    '%c3%28',
    '%ed%a0%80',
    '__proto__[polluted]=yes',
    'constructor[prototype][polluted]=yes',
    'a[b][c][d][e][f]=1',
    '&&&',
    '=',
    'limit=1&limit=2',
    'x'.repeat(5000) + '=1',
  ),
  { freq: 3 },
);

/** Bodies that are not JSON of any shape: invalid bytes, broken text, wrong encodings. */
export const rawBodies: Array<{ name: string; body: string | Buffer }> = [
  {
    name: 'invalid UTF-8 bytes',
    body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  },
  {
    name: 'overlong UTF-8 and a surrogate encoded',
    body: Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
  },
  { name: 'a UTF-16 byte order mark', body: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]) },
  { name: 'NUL bytes', body: Buffer.from('{"email":"a\u0000@b.test","password":"\u0000"}') },
  { name: 'truncated JSON', body: '{"email": "a@b.test", "password": ' },
  { name: 'JSON with a trailing comma', body: '{"a":1,}' },
  { name: 'a bare string', body: '"just a string"' },
  { name: 'a bare number', body: '1e999' },
  { name: 'null', body: 'null' },
  { name: 'an empty body', body: '' },
  { name: 'whitespace', body: ' \n\t ' },
  { name: 'deeply nested arrays (10k)', body: deepJson(10_000) },
  { name: 'deeply nested objects (10k)', body: deepJson(10_000, 'object') },
  { name: 'prototype keys', body: '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}' },
  { name: 'a key repeated', body: '{"email":"a@b.test","email":["x"]}' },
  { name: 'huge numbers', body: '{"limit":1e308,"offset":-1e308,"id":123456789012345678901234567890}' },
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  ';;;',
  'application/json, text/html',
  '',
];

/** Cookies and Authorization headers an attacker might send. */
export const badCredentials: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constantFrom<Record<string, string>>(
    { cookie: 'eggwatch_session=' },
    { cookie: 'eggwatch_session=b' + 'a'.repeat(40) },
    { cookie: 'eggwatch_session=p' + '0'.repeat(40) },
    { cookie: "eggwatch_session=' or 1=1 --" },
    { cookie: 'eggwatch_session=%ff%fe; eggwatch_session=x' },
    { cookie: 'eggwatch_session="quoted"; other=1' },
    { cookie: '=; ;;; =x' },
    { cookie: 'eggwatch_session=' + 'x'.repeat(8000) },
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' },
    { authorization: 'Bearer b' + 'z'.repeat(40) },
    { authorization: 'Bearer ../../etc/passwd' },
    { authorization: 'Bearer ' + 'x'.repeat(8000) },
    { authorization: 'Basic YWRtaW46YWRtaW4=' },
    { authorization: 'bearer lowercase' },
  ),
  hostileString.map((s) => ({ authorization: `Bearer ${s.replace(/[^\x20-\x7e]/g, '?')}` })),
  hostileString.map((s) => ({ cookie: `eggwatch_session=${encodeComponent(s)}` })),
);

/**
 * Every route of a Fastify instance as "METHOD /path" (HEAD included), read from printRoutes'
 * trees so that routes registered before any hook could watch them are listed too (the tree of
 * all methods leaves out a wildcard beside static siblings, so each method's tree is read too).
 */
export function enumerateRoutes(app: {
  printRoutes(options?: { method?: string; commonPrefix?: boolean }): string;
}): Set<string> {
  const routes = new Set<string>();
  for (const tree of [
    app.printRoutes({ commonPrefix: false }),
    ...http.METHODS.map((method) => app.printRoutes({ method })),
  ]) {
    for (const route of routesOfTree(tree)) routes.add(route);
  }
  return routes;
}

function routesOfTree(tree: string): Set<string> {
  const routes = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2] === '(empty root node)' ? '' : match[2]!);
    if (match[3]) for (const method of match[3].split(', ')) routes.add(`${method} ${stack.join('')}`);
  }
  return routes;
}

/**
 * A row trigger on every table logs each insert, update and delete, so "nothing written" is exact
 * (an update that keeps the row count is seen too). Not logged: rate_limits (counting refused
 * attempts is their purpose) and session expiry refreshes (reading a session may extend it).
 */
export async function installWriteLog(sql: Sql): Promise<void> {
  await sql.unsafe(`
    create table hostile_write_log (id bigserial primary key, tbl text not null, op text not null);
    create function hostile_log_write() returns trigger language plpgsql as $$
    begin
      insert into public.hostile_write_log (tbl, op) values (tg_table_schema || '.' || tg_table_name, tg_op);
      return null;
    end $$;`);
  // A partitioned table's trigger is cloned onto its partitions: watch the parent, not each part.
  const tables = await sql<{ schema: string; name: string }[]>`
    select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and not c.relispartition and n.nspname in ('public', 'graphile_worker')
      and c.relname not in ('hostile_write_log', 'rate_limits')`;
  if (tables.length < 10) throw new Error(`only ${tables.length} tables to watch`);
  for (const { schema, name } of tables) {
    const ops = name === 'user_sessions' ? 'insert or delete' : 'insert or update or delete';
    await sql.unsafe(
      `create trigger hostile_log after ${ops} on "${schema}"."${name}" for each row execute function hostile_log_write()`,
    );
  }
}

/** The id of the newest logged write: what a refused request must leave as it was. */
export async function lastWrite(sql: Sql): Promise<number> {
  const [row] = await sql<{ id: string | null }[]>`select max(id) as id from hostile_write_log`;
  return Number(row!.id ?? 0);
}

/** The writes logged after `since` (table and operation). */
export async function writesSince(sql: Sql, since: number): Promise<Array<{ tbl: string; op: string }>> {
  return sql<Array<{ tbl: string; op: string }>>`select tbl, op from hostile_write_log where id > ${since} order by id`;
}
