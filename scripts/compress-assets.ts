// Pre-compressed copies of the client build: for each text asset, a .br (brotli, best quality) and
// a .gz (gzip -9) sibling that @fastify/static serves when the browser accepts that encoding
// (preCompressed in src/server/app.ts), so no response is compressed on the fly.
//
// vite.config.ts runs this after every build (Vite's CLI, `npm start`'s rebuild, the test server);
// `tsx scripts/compress-assets.ts [dist]` does it for an existing build.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats worth compressing; smaller files gain nothing from it. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;
const MIN_BYTES = 1024;

export interface CompressedFile {
  file: string;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/** Writes .br and .gz siblings for the given files (paths relative to `dir`). */
export async function compressFiles(dir: string, files: readonly string[]): Promise<CompressedFile[]> {
  const results = await Promise.all(
    files
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file): Promise<CompressedFile | null> => {
        const full = path.join(dir, file);
        const source = await fs.readFile(full);
        if (source.length < MIN_BYTES) return null;
        const [br, gz] = await Promise.all([
          brotli(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
          gzip(source, { level: 9 }),
        ]);
        await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
        return { file, bytes: source.length, brotliBytes: br.length, gzipBytes: gz.length };
      }),
  );
  return results.filter((result): result is CompressedFile => result !== null);
}

/** Every compressible file under `dir`/assets. */
export async function compressAssets(dir: string): Promise<CompressedFile[]> {
  const assets = await fs.readdir(path.join(dir, 'assets'));
  return compressFiles(
    dir,
    assets.map((name) => path.join('assets', name)),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const done = await compressAssets(dir);
  const total = (key: 'bytes' | 'brotliBytes' | 'gzipBytes') => done.reduce((sum, file) => sum + file[key], 0);
  console.log(
    `Compressed ${done.length} files in ${dir}: ${total('bytes')} bytes, brotli ${total('brotliBytes')}, gzip ${total('gzipBytes')}`,
  );
}
