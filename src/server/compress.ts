// Compression of the web process's own answers (tRPC and REST JSON, index.html) for browsers that
// accept it: brotli, else gzip. Files of the client build are not touched here: they have
// pre-compressed copies (scripts/compress-assets.ts, served by @fastify/static).
//
// Only GET answers of at least 1 kB are compressed (mutations answer little, and a response that
// mixes a secret with reflected input must not be compressed). A cached answer is the same Buffer
// every time (trpc-cache.ts), so its compressed forms are kept with it and made once.
//
// Compression runs on zlib's thread pool, never on the event loop: brotli over a large answer (the
// whole price list) took long enough there to hold every other request each time new prices
// dropped the cache (docs/decisions/006-load.md).
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:application\/json|text\/html|text\/plain|text\/csv|application\/javascript|text\/css)/;

type Encoding = 'br' | 'gzip';

const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

/** Answers of negotiateEncoding for the Accept-Encoding values seen (browsers send a handful). */
const negotiated = new Map<string, Encoding | null>();

/** The best encoding the Accept-Encoding header allows (q=0 refuses one), or null. */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  if (typeof header === 'string') {
    let known = negotiated.get(header);
    if (known === undefined) {
      known = parseAcceptEncoding(header);
      if (negotiated.size >= 256) negotiated.clear();
      negotiated.set(header, known);
    }
    return known;
  }
  return parseAcceptEncoding(header.join(','));
}

function parseAcceptEncoding(header: string): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const wildcard = accepted.get('*');
  const allows = (name: Encoding) => (accepted.get(name) ?? wildcard ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return null;
}

const compressedBuffers = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();
/** The compressed forms of cached answers that are made already. */
const readyBuffers = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, BROTLI_OPTIONS) : gzip(body, { level: 6 });
}

/** A cached answer's compressed form, made once (concurrent requests share the one under way). */
function compressCached(body: Buffer, encoding: Encoding): Promise<Buffer> {
  let forms = compressedBuffers.get(body);
  if (!forms) {
    forms = {};
    compressedBuffers.set(body, forms);
  }
  let made = forms[encoding];
  if (made === undefined) {
    const making = compress(body, encoding);
    made = forms[encoding] = making;
    making.then(
      (compressed) => {
        let ready = readyBuffers.get(body);
        if (!ready) readyBuffers.set(body, (ready = {}));
        ready[encoding] = compressed;
      },
      // A failure is not kept: the next request tries again.
      () => {
        if (forms[encoding] === making) delete forms[encoding];
      },
    );
  }
  return made;
}

/**
 * The compressed form of a cached answer being made or made (undefined when none was asked for):
 * what a request for that encoding waits on before the early answer can send it.
 */
export function compressedForm(body: Buffer, encoding: Encoding): Promise<Buffer> | undefined {
  return compressedBuffers.get(body)?.[encoding];
}

export function addVary(current: unknown): string {
  const values = String(current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  return values.some((value) => value.toLowerCase() === 'accept-encoding' || value === '*')
    ? values.join(', ')
    : [...values, 'Accept-Encoding'].join(', ');
}

/**
 * How a cached answer's body travels to a request, as the compression hook below would send it:
 * `encoding` is the Content-Encoding (null for none) and `vary` whether Accept-Encoding joins its
 * Vary header. Undefined while the compressed form the request wants is still being made (the
 * hook then makes or awaits it).
 */
export function cachedTransport(
  body: Buffer,
  contentType: string,
  acceptEncoding: string | string[] | undefined,
): { body: Buffer; encoding: Encoding | null; vary: boolean } | undefined {
  if (body.length < MIN_BYTES || !COMPRESSIBLE.test(contentType)) return { body, encoding: null, vary: false };
  const encoding = negotiateEncoding(acceptEncoding);
  if (!encoding) return { body, encoding: null, vary: true };
  const ready = readyBuffers.get(body)?.[encoding];
  return ready ? { body: ready, encoding, vary: true } : undefined;
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'GET' || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (reply.getHeader('content-encoding')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < MIN_BYTES) return payload;
    reply.header('vary', addVary(reply.getHeader('vary')));
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return typeof payload === 'string' ? compress(body, encoding) : compressCached(body, encoding);
  });
}
