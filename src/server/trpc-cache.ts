// Public tRPC queries answered from a byte cache, like the REST reads: a GET of cached procedures
// (cachedProcedure, found in the router by procedures.ts) is computed once per URL and data version, serialised exactly as
// tRPC's HTTP handler would (the response envelope of a single or batched call), and then served
// as stored bytes with an ETag. tRPC's own handler costs more than a millisecond of CPU per
// request even for a cached result. Anything else (mutations, errors, other procedures) goes to
// tRPC unchanged: on any failure here the request simply falls through.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { transformer } from '#shared/transformer.ts';
import { etagOf, type DataCache } from './cache.ts';
import type { CachedRead } from './cached-reads.ts';
import type { Context } from './context.ts';
import { isCachedQuery, procedureFor, sourcesOf } from './procedures.ts';

type SerializedInput = Parameters<typeof transformer.deserialize>[0];

export function trpcByteCache(deps: {
  cache: DataCache;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Promise<Context>;
}) {
  return async function serveCached(req: FastifyRequest, reply: FastifyReply) {
    if (req.method !== 'GET' || !req.url.startsWith('/trpc/')) return;
    // The URL as it came is the key (paths under /trpc/ never meet the cache's other keys); no
    // cached answer outlives its UTC day (DataCache), as for REST.
    const key = req.url;
    // Only the answer of cacheable procedures is ever kept under such a key: a hit is sent at once.
    const hit = deps.cache.peek<Cached>(key);
    if (hit) return send(req, reply, hit);
    const url = new URL(req.url, 'http://local');
    const paths = decodeURIComponent(url.pathname.slice('/trpc/'.length)).split(',');
    if (!paths.every(isCachedQuery)) return;
    const batch = url.searchParams.get('batch') === '1';
    let cached: Cached;
    try {
      cached = await deps.cache.get(
        key,
        async () => {
          const raw = url.searchParams.get('input');
          const inputs = (raw ? JSON.parse(raw) : {}) as Record<string, SerializedInput>;
          const ctx = await deps.createContext({ req, res: reply });
          const results = await Promise.all(
            paths.map((path, i) => {
              const input = batch ? inputs[String(i)] : (inputs as unknown as SerializedInput);
              return procedureFor(ctx, path)(input === undefined ? undefined : transformer.deserialize(input));
            }),
          );
          const envelopes = results.map((data) => ({ result: { data: transformer.serialize(data) } }));
          const body = Buffer.from(JSON.stringify(batch ? envelopes : envelopes[0]));
          const etag = etagOf(body);
          return {
            body,
            etag,
            sent: { etag, 'cache-control': 'no-cache', 'content-type': 'application/json' },
            limited: false,
          };
        },
        sourcesOf(...paths),
      );
    } catch {
      // Bad input or an error: tRPC's handler answers it with its usual error shape.
      return;
    }
    return send(req, reply, cached);
  };
}

type Cached = CachedRead;

function send(req: FastifyRequest, reply: FastifyReply, cached: Cached) {
  if (req.headers['if-none-match'] === cached.etag)
    return reply.header('etag', cached.etag).header('cache-control', 'no-cache').code(304).send();
  return reply.headers(cached.sent).send(cached.body);
}
