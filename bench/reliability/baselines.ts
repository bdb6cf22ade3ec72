// The baselines the load benchmark (load.ts) measures each path against, added to its web process
// (web.ts) and served through the same Fastify hooks as the paths: a file of the folder at
// /__bench/static/<file> (@fastify/static, as the client build is served, with its .br and .gz
// siblings when present); the same bytes from memory at /__bench/memory/<file> (read once, then
// sent as a Buffer: the most a route of this process can do); and at /__bench/response/<file> the
// same body with the path's own response headers (CORS, rate limit, ETag, cache; recorded by the
// benchmark in <file>.headers.json): the same response from memory.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export const BENCH_STATIC_PREFIX = '/__bench/static/';
export const BENCH_MEMORY_PREFIX = '/__bench/memory/';

/** The same body with the path's own response headers as well (its <file>.headers.json): the same response. */
export const BENCH_RESPONSE_PREFIX = '/__bench/response/';

export function registerBenchBaselines(app: FastifyInstance, dir: string): void {
  void app.register(fastifyStatic, {
    root: dir,
    prefix: BENCH_STATIC_PREFIX,
    decorateReply: false,
    cacheControl: false,
    preCompressed: true,
  });
  const held = new Map<string, Buffer>();
  const heldHeaders = new Map<string, Record<string, string>>();
  const read = async (file: string): Promise<Buffer | null> => {
    let body = held.get(file);
    if (!body && path.basename(file) === file) {
      const found = await fs.promises.readFile(path.join(dir, file)).catch(() => null);
      if (found) held.set(file, (body = found));
    }
    return body ?? null;
  };
  app.get(`${BENCH_MEMORY_PREFIX}:file`, async (req, reply) => {
    const { file } = req.params as { file: string };
    const body = await read(file);
    if (!body) return reply.code(404).send({ message: `Not found: ${file}` });
    return reply.type('application/json').send(body);
  });
  app.get(`${BENCH_RESPONSE_PREFIX}:file`, async (req, reply) => {
    const { file } = req.params as { file: string };
    const body = await read(file);
    let headers = heldHeaders.get(file);
    if (!headers && body) {
      const found = await fs.promises.readFile(path.join(dir, `${file}.headers.json`), 'utf8').catch(() => null);
      if (found) heldHeaders.set(file, (headers = JSON.parse(found) as Record<string, string>));
    }
    if (!body || !headers) return reply.code(404).send({ message: `Not found: ${file}` });
    return reply.headers(headers).send(body);
  });
}
