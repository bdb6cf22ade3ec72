// Benchmarks only (BENCH_BASELINE_DIR, never in production): the two baselines the load benchmark
// (bench/reliability/load.ts) measures each path against, served by the same process through the
// same Fastify hooks: a file of the folder at /__bench/static/<file> (@fastify/static, as the
// client build is served, with its .br and .gz siblings when present), and the same bytes from memory at /__bench/memory/<file> (read once,
// then sent as a Buffer: the most a route of this process can do).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export const BENCH_STATIC_PREFIX = '/__bench/static/';
export const BENCH_MEMORY_PREFIX = '/__bench/memory/';

export function registerBenchBaselines(app: FastifyInstance, dir: string): void {
  void app.register(fastifyStatic, { root: dir, prefix: BENCH_STATIC_PREFIX, decorateReply: false, cacheControl: false, preCompressed: true });
  const held = new Map<string, Buffer>();
  app.get(`${BENCH_MEMORY_PREFIX}:file`, async (req, reply) => {
    const { file } = req.params as { file: string };
    let body = held.get(file);
    if (!body) {
      if (path.basename(file) !== file) return reply.code(404).send({ message: `Not found: ${file}` });
      const found = await fs.promises.readFile(path.join(dir, file)).catch(() => null);
      if (!found) return reply.code(404).send({ message: `Not found: ${file}` });
      held.set(file, (body = found));
    }
    return reply.type('application/json').send(body);
  });
}
