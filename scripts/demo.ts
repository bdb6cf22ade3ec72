// `npm run demo`: the app with every scraper pointed at the retailer stand-in (test/retailers), so
// a newcomer without internet can run all six scrapers and watch progress and prices arrive. Its
// own embedded database (.data/demo-postgres) keeps demo prices out of a real installation, and
// prices read from the stand-in are recorded and shown as sample data ('demo'), never as a
// retailer's. No email leaves the machine: each one waits in the admin dashboard's Outbox tab,
// where its links can be followed. Walmart walls this machine's address, as the real site walls
// datacenter addresses: its requests escalate to a local proxy with a user and password (a
// "residential" tier), and the admin area's Test connection shows both.
import crypto from 'node:crypto';
import { startStandIn } from '../test/retailers/server.ts';
import { closingStoresText } from '../test/retailers/network.ts';
import { EGRESS_ADDRESSES, egressAddressesWork, startProxy } from '../test/egress/proxies.ts';
import { newWorld, startOfficialStandIn } from '../test/official/standin.ts';
import { demoAphisCsv, demoMarsReports } from '../test/official/demo-world.ts';
import { runOfficialDemo } from './official-demo.ts';

const port = Number(process.env.DEMO_STAND_IN_PORT ?? 4599);
// (a proxy's traffic leaves from 127.0.0.3: Linux answers on all of 127.0.0.0/8, other systems need an alias)
const proxied = await egressAddressesWork();
const standIn = await startStandIn({ port, walls: proxied ? { walmart: [EGRESS_ADDRESSES.direct] } : {} });
if (proxied) {
  const proxy = await startProxy({
    username: 'demo',
    password: crypto.randomBytes(12).toString('base64url'),
    egressAddress: EGRESS_ADDRESSES.residential,
  });
  process.env.SCRAPER_PROXY_TIERS_WALMART = `direct; residential=${proxy.url}`;
  // (a blocked demo ZIP must not rest the only proxy)
  process.env.SCRAPER_PROXY_REST_MINUTES = '0';
  console.log(
    `[eggwatch] Demo: Walmart walls this machine's address; its requests move to the "residential" tier, a local proxy at ${proxy.label} with a user and password. ` +
      'See it in the admin dashboard: Data Scrapers, "Egress and Test connection", Test connection.',
  );
} else {
  console.log("[eggwatch] Demo: 127.0.0.3 is not a local address here, so Walmart's proxy demonstration is off");
}
for (const name of [
  'WALMART_ORIGIN',
  'TARGET_ORIGIN',
  'KROGER_ORIGIN',
  'ALBERTSONS_ORIGIN',
  'WHOLE_FOODS_ORIGIN',
  'ALDI_ORIGIN',
]) {
  process.env[name] = standIn.url;
}
process.env.SCRAPER_ORIGINS_ARE_RETAILERS = '0';
// The stand-in accepts any Kroger client; a real one comes from developer.kroger.com.
process.env.KROGER_CLIENT_ID ||= 'demo-client';
process.env.KROGER_CLIENT_SECRET ||= 'demo-secret';
// Slow enough to watch a run's progress bar, quick enough not to wait long.
process.env.SCRAPE_DELAY_MS ||= '400';
// Offline: emails stay in the outbox even when a .env names a Resend key.
process.env.RESEND_API_KEY = '';
// Never the configured database: demo prices stay out of a real installation.
// The official sources (BLS, USDA Market News, APHIS) answered by their stand-in (test/official):
// BLS from the real values of data/, its newest month held back and released while the demo runs;
// USDA's two reports and APHIS's detections made up over the demo's history (demo-world.ts).
const officialWorld = newWorld();
officialWorld.mars.reports = demoMarsReports();
officialWorld.aphis.csv = demoAphisCsv();
const official = await startOfficialStandIn(officialWorld, Number(process.env.DEMO_OFFICIAL_PORT ?? 4598));
process.env.BLS_API_ORIGIN = official.origin;
process.env.BLS_API_KEY = '';
process.env.USDA_MARS_ORIGIN = official.origin;
process.env.USDA_MARS_API_KEY = officialWorld.mars.key;
process.env.APHIS_HPAI_URL = `${official.origin}/aphis/hpai-confirmed-detections.csv`;
process.env.DATABASE_URL = process.env.DEMO_DATABASE_URL ?? '';
process.env.EMBEDDED_PG_DIR = '.data/demo-postgres';
console.log(`[eggwatch] Demo: the retailer stand-in answers at ${standIn.url}; every scraper reads from it`);
console.log(
  '[eggwatch] Demo: special ZIP codes show the failure cases: 99501 bot wall, 59001 a 500 then success, 83201 slow, 82001 changed page, 05401 no store, 58001 rate limited',
);
console.log(
  `[eggwatch] Demo: the stand-in's store network answers every locator (Coverage discovery). One store per chain closes when you run: curl -X POST -d '{"closed":true}' ${standIn.url}/__standin/close-stores (${closingStoresText()}); two complete sweeps of its state later, discovery marks it closed ('{"closed":false}' brings it back)`,
);

const { startedDatabaseUrl } = await import('./start.ts');
// After start: the database is up, the URL printed, and env read with the settings above.
const { env, publicUrl } = await import('#server/env.ts');
console.log(
  `[eggwatch] Demo: emails are not sent. Every one (subscription confirmations with their manage and unsubscribe links, account emails) ` +
    `waits in the admin dashboard's Outbox tab, where it can be read and its links followed: ${publicUrl(env)}/admin/dashboard?tab=outbox`,
);

if (startedDatabaseUrl) await runOfficialDemo(startedDatabaseUrl, officialWorld, `${publicUrl(env)}/data-sources`);
