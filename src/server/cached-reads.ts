// Cached reads answered first. REST reads and public tRPC queries keep their answers in the read
// cache under the URL they were asked with (rest/handler.ts, trpc-cache.ts), with every header of their
// 200 answer. A GET whose URL holds such an answer is answered by the first hook of every request,
// before the security-header middleware, the CORS plugin, routing's hooks and the compression
// hook: the same status, headers and bytes as those would give (the security headers as worked
// out once, security-headers.ts; the compressed form and Vary as compress.ts makes them; for the
// public API, its CORS headers and the rate limit, counted as for any public read). Under load this
// brings a cached read's cost down to that of sending the same response from memory
// (bench/reliability/load.ts; measured in docs/decisions/006-load.md).
//
// Anything else goes the usual way, as does a cached read that is conditional (If-None-Match), a
// HEAD, over the rate limit (the route answers the 429, without counting it twice), or wanting a
// compressed form that is still being made.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { DataCache } from './cache.ts';
import { addVary, cachedTransport } from './compress.ts';
import { rateLimitHeaders, type PublicRateLimit } from './public-rate-limit.ts';

/** What the REST and tRPC byte caches keep under a URL. */
export interface CachedRead {
  body: Buffer;
  etag: string;
  /** Every header of its 200 answer that is its own: ETag, Cache-Control, Content-Type, CORS, paging. */
  sent: Readonly<Record<string, string>>;
  /** Whether it counts against the public API's rate limit. */
  limited: boolean;
  /** Its complete headers per transport (encoding), made on first use. */
  complete?: Map<string, Record<string, string>>;
}

export function cachedReads(deps: {
  cache: DataCache;
  securityHeaders: Readonly<Record<string, string>>;
  rateLimit: PublicRateLimit | null;
}): onRequestHookHandler {
  return function answerCachedRead(req: FastifyRequest, reply: FastifyReply, done: () => void) {
    if (req.method !== 'GET' || req.headers['if-none-match'] !== undefined) return done();
    const hit = deps.cache.peek<CachedRead>(req.url);
    if (hit?.sent === undefined) return done();
    const transport = cachedTransport(hit.body, hit.sent['content-type'] ?? '', req.headers['accept-encoding']);
    if (transport === undefined) return done();
    let limit: Record<string, string> | null = null;
    if (hit.limited && deps.rateLimit) {
      const state = deps.rateLimit.count(req);
      if (state.exceeded) return done();
      limit = rateLimitHeaders(state);
    }
    const kind = `${transport.encoding ?? 'identity'}:${transport.vary}`;
    hit.complete ??= new Map();
    let headers = hit.complete.get(kind);
    if (headers === undefined) {
      headers = { ...deps.securityHeaders, ...hit.sent, 'content-length': String(transport.body.length) };
      if (transport.vary) headers.vary = addVary(headers.vary);
      if (transport.encoding) headers['content-encoding'] = transport.encoding;
      hit.complete.set(kind, headers);
    }
    reply.hijack();
    const res = reply.raw;
    if (limit) for (const name in limit) res.setHeader(name, limit[name]!);
    res.writeHead(200, headers);
    res.end(transport.body);
  };
}
