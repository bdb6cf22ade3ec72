// A stand-in for the official sources (BLS Public Data API, USDA MyMarketNews, the APHIS CSV), for
// tests and `npm run demo`: it answers in the real services' shapes (test/official/*/SOURCES.md
// gives each captured body's provenance) from a world the caller changes (a month released, a
// value revised, a failure switched on), and counts what it was asked.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MONTH_NAMES } from '#shared/official.ts';
import { loadBlsData, type BlsWorld } from './bls-data.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const readCaptured = (file: string) => fs.readFileSync(path.join(HERE, file), 'utf8');

export type FailureMode = 'none' | 'daily-limit' | 'http-500' | 'retry-after';

export type MarsRow = Record<string, string | number>;

export interface StandInWorld {
  bls: { values: BlsWorld; failure: FailureMode; requests: Array<{ seriesid: string[]; registrationkey?: string }> };
  /**
   * MyMarketNews: the key it accepts, each report's rows by `<slug>` or `<slug>/<section>`
   * (report_begin_date or report_date MM/DD/YYYY), what it was asked.
   */
  mars: {
    key: string;
    failure: FailureMode;
    reports: Record<string, MarsRow[]>;
    requests: Array<{ path: string; user: string | null }>;
  };
  /** APHIS: the CSV it serves. */
  aphis: { csv: string; failure: FailureMode; requests: number };
}

export function blsAnswer(world: BlsWorld, seriesIds: string[], startYear: number, endYear: number): string {
  const messages: string[] = [];
  const series = seriesIds.map((id) => {
    const months = [...(world.get(id) ?? new Map<string, string>()).entries()]
      .filter(([month]) => Number(month.slice(0, 4)) >= startYear && Number(month.slice(0, 4)) <= endYear)
      .sort(([a], [b]) => (a < b ? 1 : -1));
    for (let year = endYear; year >= startYear; year -= 1)
      if (!months.some(([m]) => m.startsWith(`${year}-`)))
        messages.push(`No Data Available for Series ${id} Year: ${year}`);
    const data = months.map(([month, value], i) => {
      const monthNumber = Number(month.slice(5, 7));
      return `{"year":"${month.slice(0, 4)}","period":"M${month.slice(5, 7)}","periodName":"${MONTH_NAMES[monthNumber - 1]}",${i === 0 ? '"latest":"true",' : ''}"value":"${value}","footnotes":[{}]}`;
    });
    return `{"seriesID":"${id}","data":[${data.join(',')}]}`;
  });
  // (the layout of the captured bodies: the series array on lines of its own)
  return `{"status":"REQUEST_SUCCEEDED","responseTime":${37 + seriesIds.length},"message":${JSON.stringify(messages)},"Results":{\n"series":\n[${series.join(',\n')}]\n}}`;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function failure(res: http.ServerResponse, mode: FailureMode, refusal: string): boolean {
  if (mode === 'none') return false;
  if (mode === 'daily-limit') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(refusal);
  } else if (mode === 'retry-after') {
    res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '3600' }).end('Too Many Requests');
  } else {
    res
      .writeHead(500, { 'content-type': 'text/html' })
      .end('<html><body><h1>500 Internal Server Error</h1></body></html>');
  }
  return true;
}

export function newWorld(): StandInWorld {
  return {
    bls: { values: loadBlsData(), failure: 'none', requests: [] },
    mars: { key: 'stand-in-key', failure: 'none', reports: {}, requests: [] },
    aphis: { csv: 'State,County,Date Confirmed,Flock Type,Flock Size\n', failure: 'none', requests: 0 },
  };
}

const toIso = (mmddyyyy: string) => {
  const [m, d, y] = mmddyyyy.split('/');
  return `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
};

function basicUser(header: string | undefined): string | null {
  const match = /^Basic (.+)$/.exec(header ?? '');
  if (!match) return null;
  return Buffer.from(match[1]!, 'base64').toString('utf8').split(':')[0] ?? null;
}

export interface OfficialStandIn {
  origin: string;
  world: StandInWorld;
  close(): Promise<void>;
}

export async function startOfficialStandIn(world: StandInWorld = newWorld(), port = 0): Promise<OfficialStandIn> {
  const notProcessed = readCaptured('bls/request-not-processed.json');
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method === 'POST' && /^\/publicAPI\/v2\/timeseries\/data\/?$/.test(url.pathname)) {
        const body = JSON.parse((await readBody(req)) || '{}') as {
          seriesid?: string[];
          startyear?: string;
          endyear?: string;
          registrationkey?: string;
        };
        world.bls.requests.push({
          seriesid: body.seriesid ?? [],
          ...(body.registrationkey ? { registrationkey: body.registrationkey } : {}),
        });
        if (failure(res, world.bls.failure, notProcessed)) return;
        const now = new Date().getUTCFullYear();
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            blsAnswer(
              world.bls.values,
              body.seriesid ?? [],
              Number(body.startyear ?? now - 2),
              Number(body.endyear ?? now),
            ),
          );
        return;
      }
      const report = /^\/services\/v1\.2\/reports\/(\d+)(?:\/([^/]+))?$/.exec(url.pathname);
      if (req.method === 'GET' && report) {
        const user = basicUser(req.headers.authorization);
        world.mars.requests.push({ path: `${url.pathname}${url.search}`, user });
        if (user !== world.mars.key) {
          res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="MARS"' });
          res.end('{"message":"Unauthorized"}');
          return;
        }
        if (failure(res, world.mars.failure, '{"results":[]}')) return;
        const id = report[2] ? `${report[1]}/${decodeURIComponent(report[2])}` : report[1]!;
        const range = /report_begin_date=(\d\d\/\d\d\/\d{4}):(\d\d\/\d\d\/\d{4})/.exec(url.searchParams.get('q') ?? '');
        const rows = (world.mars.reports[id] ?? []).filter((row) => {
          if (!range) return true;
          // (MARS filters on report_begin_date; rows written without one are filtered on report_date)
          const day = toIso(String(row.report_begin_date ?? row.report_date));
          return day >= toIso(range[1]!) && day <= toIso(range[2]!);
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: rows }));
        return;
      }
      if (req.method === 'GET' && url.pathname === '/aphis/hpai-confirmed-detections.csv') {
        world.aphis.requests += 1;
        if (failure(res, world.aphis.failure, '')) return;
        res.writeHead(200, { 'content-type': 'text/csv' }).end(world.aphis.csv);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    world,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
