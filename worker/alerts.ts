// Alert delivery, exactly once: each batch claims its alert_deliveries rows (one per subscription
// and price event, or per subscription and digest period) and writes the emails to the outbox with
// their send_email jobs in the same transaction. A claim that already exists (a doubled, retried
// or overlapping job, or a job that died after committing) yields nothing, so nothing is sent
// twice; a job that died before committing wrote nothing, and its retry sends it all.
import type { Sql, TxSql } from '#server/db.ts';
import {
  dailyDigestMatches,
  eventKey,
  immediateMatches,
  MATCH_LIMIT,
  weeklySummaries,
  weeklyUnderThreshold,
  type ImmediateSource,
  type MatchRow,
  type WeeklyRow,
} from '#server/queries/alerts.ts';
import {
  dailyDigestEmail,
  dailyDigestTables,
  type DailyDigest,
  type DailyDigestTables,
  describeSubscription,
  immediateAlertEmail,
  weeklySummaryEmail,
  type AlertListing,
  type Links,
} from '#server/email/alerts.ts';
import type { EmailMessage } from '#server/email/outbox.ts';
import { newToken } from '#server/auth/tokens.ts';
import { storeLinkTokens } from '#server/queries/subscriptions.ts';
import {
  claimDeliveries,
  insertAlertEmails,
  linkDeliveriesToEmails,
  queueEmailSends,
} from '#server/queries/alert-deliveries.ts';
import type { NotificationFrequency } from '#shared/subscriptions.ts';
import { STORE_NAMES, type EggType, type Region } from '#shared/vocabulary.ts';

export const DELIVERY_BATCH = 500;

/** Milliseconds spent per phase of the deliveries since it was last emptied (read by the benchmarks). */
export const deliveryProfile: Record<string, number> = {};
function phase(name: string, started: number): number {
  const now = performance.now();
  deliveryProfile[name] = (deliveryProfile[name] ?? 0) + (now - started);
  return now;
}
const MAX_LISTINGS = MATCH_LIMIT;

interface Claim {
  periodKey: string;
  kind: 'immediate' | 'daily' | 'weekly';
  productId: number | null;
  locationId: number | null;
  price: number | null;
}

interface Pending {
  subscriptionId: number;
  claims: Claim[];
  /** Builds the email from the claims this run actually won (null: nothing to send), with its own links. */
  render: (won: Claim[], links: Links) => EmailMessage | null;
  idempotencyKey: string;
}

export interface DeliveryReport {
  emails: number;
  subscriptions: number;
  claimedBefore: number;
}

async function deliverBatch(tx: TxSql, publicUrl: string, batch: Pending[]): Promise<{ emails: number; lost: number }> {
  let t = performance.now();
  const rows = batch.flatMap((p) => p.claims.map((c) => ({ ...c, subscriptionId: p.subscriptionId })));
  const won = await claimDeliveries(tx, rows);
  t = phase('claim', t);
  const wonKeys = new Set(won.map((w) => `${w.subscription_id}|${w.period_key}`));
  const messages: Array<{
    subscriptionId: number;
    message: EmailMessage;
    key: string;
    periodKeys: string[];
    tokenHash: string;
  }> = [];
  for (const pending of batch) {
    const claims = pending.claims.filter((c) => wonKeys.has(`${pending.subscriptionId}|${c.periodKey}`));
    if (claims.length === 0) continue;
    // Each email's manage and unsubscribe links carry a token of their own; only its hash is kept.
    const { token, hash } = newToken();
    const message = pending.render(claims, { publicUrl, token });
    if (message)
      messages.push({
        subscriptionId: pending.subscriptionId,
        message,
        key: pending.idempotencyKey,
        periodKeys: claims.map((c) => c.periodKey),
        tokenHash: hash,
      });
  }
  t = phase('render', t);
  if (messages.length === 0) return { emails: 0, lost: rows.length - won.length };
  await storeLinkTokens(
    tx,
    messages.map((m) => ({ hash: m.tokenHash, subscriptionId: m.subscriptionId })),
  );
  t = phase('tokens', t);
  const ids = await insertAlertEmails(tx, messages);
  const idByKey = new Map(ids.map((r) => [r.idempotency_key, r.id]));
  const emailIds = messages.map((m) => idByKey.get(m.key)!);
  t = phase('outbox', t);
  await linkDeliveriesToEmails(tx, messages, emailIds);
  t = phase('deliveries', t);
  await queueEmailSends(tx, emailIds);
  phase('jobs', t);
  return { emails: messages.length, lost: rows.length - won.length };
}

/** Batches written at once, each in its own transaction on its own connection: one is rendered while another is written. */
export const DELIVERY_CONCURRENCY = 2;

async function deliver(sql: Sql, publicUrl: string, pending: Pending[]): Promise<DeliveryReport> {
  let emails = 0;
  let lost = 0;
  let next = 0;
  let failed = false;
  // Each batch claims its own subscriptions' rows, so batches side by side never wait for each
  // other; a failed batch rolls back alone and fails the run (its retry sends what is left).
  const lane = async () => {
    while (next < pending.length && !failed) {
      const batch = pending.slice(next, next + DELIVERY_BATCH);
      next += DELIVERY_BATCH;
      const started = performance.now();
      const result = await sql
        .begin((tx) => deliverBatch(tx, publicUrl, batch))
        .catch((error: unknown) => {
          failed = true;
          throw error;
        });
      phase('transactions', started);
      emails += result.emails;
      lost += result.lost;
    }
  };
  const lanes = Array.from(
    { length: Math.min(DELIVERY_CONCURRENCY, Math.ceil(pending.length / DELIVERY_BATCH)) },
    lane,
  );
  const settled = await Promise.allSettled(lanes);
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return { emails, subscriptions: pending.length, claimedBefore: lost };
}

function scopeOf(
  row: Pick<MatchRow, 'region_filter' | 'egg_type_filter' | 'preferred_stores' | 'price_threshold'>,
  frequency: NotificationFrequency,
) {
  return {
    region: row.region_filter,
    egg_type: row.egg_type_filter,
    preferred_stores: row.preferred_stores as never[],
    price_threshold: row.price_threshold,
    notification_frequency: frequency,
  };
}

function bySubscription<T extends { subscription_id: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const list = groups.get(row.subscription_id);
    if (list) list.push(row);
    else groups.set(row.subscription_id, [row]);
  }
  return groups;
}

/** Immediate alerts for the price events of one scrape run, or of some visits of a visit day. */
export async function deliverImmediate(
  sql: Sql,
  publicUrl: string,
  source: number | ImmediateSource,
  sourceKey?: string,
): Promise<DeliveryReport> {
  const from: ImmediateSource = typeof source === 'number' ? { runId: source } : source;
  const matches = await immediateMatches(sql, from);
  const key = sourceKey ?? ('runId' in from ? `${from.runId}` : `coverage:${from.coverageRunId}`);
  const pending: Pending[] = matches.map(({ subscription, listings }) => {
    const best = listings.slice(0, MAX_LISTINGS);
    const scope = scopeOf(
      {
        region_filter: subscription.region,
        egg_type_filter: subscription.egg_type,
        preferred_stores: subscription.preferred_stores,
        price_threshold: subscription.price_threshold,
      },
      'immediately',
    );
    return {
      subscriptionId: subscription.id,
      idempotencyKey: `immediate:${key}:${subscription.id}`,
      claims: best.map((row) => ({
        periodKey: eventKey(row),
        kind: 'immediate',
        productId: row.product_id,
        locationId: row.location_id,
        price: row.price,
      })),
      render: (won, links) => {
        const keys = new Set(won.map((c) => c.periodKey));
        const shown = best.filter((row) => keys.has(eventKey(row)));
        return shown.length
          ? immediateAlertEmail(subscription.email, scope, shown, links, describeSubscription(scope, STORE_NAMES))
          : null;
      },
    };
  });
  return deliver(sql, publicUrl, pending);
}

/** The daily digests of a UTC day. An empty digest (no match that day) is not sent. */
export async function deliverDaily(sql: Sql, publicUrl: string, day: string): Promise<DeliveryReport> {
  let t = performance.now();
  const rows = await dailyDigestMatches(sql, day);
  t = phase('match', t);
  const pending: Pending[] = [];
  // Subscriptions of the same scope whose threshold lets the same listings through get the same
  // listing tables: each distinct pair of tables is rendered once in this run.
  const tables = new Map<string, { digest: DailyDigest; tables: DailyDigestTables }>();
  for (const [subscriptionId, list] of bySubscription(rows)) {
    const matches = list.filter((r) => r.role === 'match').slice(0, MAX_LISTINGS);
    if (matches.length === 0) continue;
    const first = list[0]!;
    const scope = scopeOf(first, 'daily');
    const cheapest = list.filter((r) => r.role === 'cheapest');
    const key = [...matches, { product_id: 0, location_id: 0, price: 0 }, ...cheapest]
      .map((r) => `${r.product_id}:${r.location_id}:${r.price}`)
      .join(',');
    pending.push({
      subscriptionId,
      idempotencyKey: `daily:${day}:${subscriptionId}`,
      claims: [{ periodKey: `daily:${day}`, kind: 'daily', productId: null, locationId: null, price: null }],
      render: (_won, links) => {
        let shared = tables.get(key);
        if (!shared) {
          const digest = { matches, cheapest };
          shared = { digest, tables: dailyDigestTables(digest, links.publicUrl) };
          tables.set(key, shared);
        }
        return dailyDigestEmail(
          first.email,
          scope,
          shared.digest,
          links,
          describeSubscription(scope, STORE_NAMES),
          day,
          shared.tables,
        );
      },
    });
  }
  phase('prepare', t);
  return deliver(sql, publicUrl, pending);
}

/** The weekly summaries of the week before `monday` (a UTC date). A week without prices sends nothing. */
export async function deliverWeekly(sql: Sql, publicUrl: string, monday: string): Promise<DeliveryReport> {
  const [summaries, under] = await Promise.all([weeklySummaries(sql, monday), weeklyUnderThreshold(sql, monday)]);
  const underBySubscription = bySubscription(under);
  const pending: Pending[] = summaries.map((row: WeeklyRow) => {
    const scope = scopeOf(row, 'weekly');
    const lowest = {
      store_id: row.lowest_store_id,
      store_name: row.lowest_store_name,
      region: row.lowest_region,
      egg_type: row.lowest_egg_type,
      count: row.lowest_count,
      price: row.lowest_price,
      title: row.lowest_title,
      reference_price: null,
      per_dozen: row.lowest_per_dozen,
    } satisfies AlertListing & { per_dozen: number; region: Region; egg_type: EggType };
    return {
      subscriptionId: row.subscription_id,
      idempotencyKey: `weekly:${monday}:${row.subscription_id}`,
      claims: [{ periodKey: `weekly:${monday}`, kind: 'weekly', productId: null, locationId: null, price: null }],
      render: (_won, links) =>
        weeklySummaryEmail(
          row.email,
          scope,
          {
            lowest,
            average: row.average,
            previousAverage: row.previous_average,
            cheapestStore: { store_name: row.cheapest_store_name, per_dozen: row.cheapest_store_per_dozen },
            underThreshold: (underBySubscription.get(row.subscription_id) ?? []).slice(0, MAX_LISTINGS),
          },
          links,
          describeSubscription(scope, STORE_NAMES),
          monday,
        ),
    };
  });
  return deliver(sql, publicUrl, pending);
}
