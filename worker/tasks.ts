// The worker's task list and crontab, shared by the worker process and the task tests.
import type { TaskList } from 'graphile-worker';
import type { WorkerDeps } from './deps.ts';
import { COVERAGE_SCHEDULE_MINUTE } from '#shared/coverage.ts';
import { OFFICIAL_SCHEDULE_MINUTES } from '#shared/official.ts';
import { pricesRollup } from './tasks/prices__rollup.ts';
import { pricesNightly } from './tasks/prices__nightly.ts';
import { pricesPartitions } from './tasks/prices__partitions.ts';
import { sendEmail } from './tasks/send_email.ts';
import { maintenancePrune } from './tasks/maintenance__prune.ts';
import { emailOutboxPurge } from './tasks/email_outbox__purge.ts';
import { subscriptionsPurge } from './tasks/subscriptions__purge.ts';
import { storesScrape } from './tasks/stores__scrape.ts';
import { workerRecover } from './tasks/worker__recover.ts';
import { scrapeSchedule } from './tasks/scrape__schedule.ts';
import { alertsImmediate } from './tasks/alerts__immediate.ts';
import { alertsDigest } from './tasks/alerts__digest.ts';
import { alertsSchedule } from './tasks/alerts__schedule.ts';
import { coverageDiscover } from './tasks/coverage__discover.ts';
import { coverageVisitDay } from './tasks/coverage__visit_day.ts';
import { coverageVisit } from './tasks/coverage__visit.ts';
import { coverageSchedule } from './tasks/coverage__schedule.ts';
import { egressTest } from './tasks/egress__test.ts';
import { officialFetch } from './tasks/official__fetch.ts';
import { officialSchedule } from './tasks/official__schedule.ts';

export function taskList(deps: WorkerDeps): TaskList {
  return {
    prices__rollup: pricesRollup(deps),
    prices__nightly: pricesNightly(deps),
    prices__partitions: pricesPartitions(deps),
    send_email: sendEmail(deps),
    maintenance__prune: maintenancePrune(deps),
    email_outbox__purge: emailOutboxPurge(deps),
    subscriptions__purge: subscriptionsPurge(deps),
    stores__scrape: storesScrape(deps),
    worker__recover: workerRecover(deps),
    scrape__schedule: scrapeSchedule(deps),
    alerts__immediate: alertsImmediate(deps),
    alerts__digest: alertsDigest(deps),
    alerts__schedule: alertsSchedule(deps),
    coverage__discover: coverageDiscover(deps),
    coverage__visit_day: coverageVisitDay(deps),
    coverage__visit: coverageVisit(deps),
    coverage__schedule: coverageSchedule(deps),
    egress__test: egressTest(deps),
    official__fetch: officialFetch(deps),
    official__schedule: officialSchedule(deps),
  };
}

/** Times are UTC. One entry per job kind; tasks fan out themselves. */
export const CRONTAB = [
  '# nightly upkeep: sample top-up and a full rollup rebuild',
  '15 2 * * * prices__nightly ?max=3',
  "# the price history's monthly partitions ahead; with PRICE_HISTORY_RETENTION_MONTHS, old months dropped",
  '25 0 * * * prices__partitions ?max=3',
  '# expired sessions, tokens and rate-limit windows',
  '45 3 * * * maintenance__prune ?max=3',
  '# what the Privacy Policy says is kept for a while: copies of sent emails, stopped alerts without an account',
  '50 3 * * * email_outbox__purge ?max=3',
  '55 3 * * * subscriptions__purge ?max=3',
  '# jobs and scrape runs of a worker that died: run them again, or fail them (within two minutes)',
  '* * * * * worker__recover ?max=1',
  '# the daily scrape, at the hour set in the admin Settings tab',
  '0 * * * * scrape__schedule ?max=1',
  '# price alert digests, at ALERT_DIGEST_HOUR_UTC (daily; weekly on Mondays)',
  '0 * * * * alerts__schedule ?max=1',
  "# each coverage plan's visit day, at the first tick of a UTC day (later ticks start one whose previous day ran late)",
  `${COVERAGE_SCHEDULE_MINUTE} * * * * coverage__schedule ?max=1`,
  '# the official sources (BLS, USDA, APHIS) that are due, each on its own schedule',
  `*/${OFFICIAL_SCHEDULE_MINUTES} * * * * official__schedule ?max=1`,
].join('\n');
