// Price events and alert matching, set-based (docs/features/alerts.md). Only retailer prices
// (source 'scrape') take part: sample and demo prices never alert anyone.
//
// The rule (written out one listing at a time in test/alert-matching.ts, which the tests hold this
// SQL to): region, egg type and preferred stores (none means all) must match; with a threshold, the price per dozen must be at
// or below it; without one, the price must have dropped at least 5% against the price 7 days
// before. Subscriptions share scopes (region, egg type, stores), so listings are ranked once per
// scope and each subscription takes the best of its scope's ranking that pass its threshold.
import { DROP_MATCH_PERCENT } from '#shared/subscriptions.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import type { Fragment } from 'postgres';
import type { Db } from '../db.ts';
import type { AlertListing } from '../email/alerts.ts';

/** A listing an alert shows, with the price event it is (product, location and price). */
export interface MatchListing extends AlertListing {
  product_id: number;
  location_id: number;
}

export interface MatchRow extends MatchListing {
  subscription_id: number;
  email: string;
  region_filter: Region | null;
  egg_type_filter: EggType | null;
  preferred_stores: string[];
  price_threshold: number | null;
  /** 'match' (a listing the rule matches) or 'cheapest' (daily digest: cheapest current in scope). */
  role: 'match' | 'cheapest';
}

const DROP = 1 - DROP_MATCH_PERCENT / 100;
/** Candidates kept per scope and rule: room for price events a subscription already had. */
const CANDIDATES = 30;
/** Matches per subscription (the emails list the best ten). */
export const MATCH_LIMIT = 10;
const CHEAPEST = 5;

/** The listing columns every matcher reads, from price_entries e, locations l, products p, stores s. */
const LISTING = `e.product_id, e.location_id, l.store_id, s.store_name, l.region, p.egg_type, p.count, e.price::float8 as price,
  e.reference_price::float8 as reference_price, p.title, e.price / p.count * 12 as per_dozen,
  (e.reference_price is not null and e.price <= e.reference_price * ${DROP}) as dropped`;

type ListingTuple = [
  product_id: number,
  location_id: number,
  store_id: string,
  store_name: string,
  region: Region,
  egg_type: EggType,
  count: number,
  price: number,
  reference_price: number | null,
  title: string,
];

const listingOf = (t: ListingTuple): MatchListing => ({
  product_id: t[0],
  location_id: t[1],
  store_id: t[2],
  store_name: t[3],
  region: t[4],
  egg_type: t[5],
  count: t[6],
  price: t[7],
  reference_price: t[8],
  title: t[9],
});

export interface DueSubscription {
  id: number;
  email: string;
  region: Region | null;
  egg_type: EggType | null;
  preferred_stores: string[];
  price_threshold: number | null;
}

interface ScopeRankingRow {
  region: Region | null;
  egg_type: EggType | null;
  preferred_stores: string[];
  by_price: ListingTuple[] | null;
  by_drop: ListingTuple[] | null;
}

/** A scope's candidates, best first: by price per dozen (with each one's price per dozen), and those that dropped. */
interface ScopeListings {
  byPrice: MatchListing[];
  perDozen: number[];
  byDrop: MatchListing[];
}

const scopeKey = (s: { region: string | null; egg_type: string | null; preferred_stores: string[] }) =>
  `${s.region}|${s.egg_type}|${s.preferred_stores.join(',')}`;

/**
 * Ranks a set of listings once per scope (region, egg type, preferred stores) of the due
 * subscriptions: the cheapest by price per dozen, and the cheapest of those that dropped at least
 * 5% in 7 days. `due` and `listings` are SQL that select the subscriptions and the listings.
 */
async function rankByScope(sql: Db, due: Fragment, listings: Fragment): Promise<Map<string, ScopeListings>> {
  const tuple =
    'json_build_array(product_id, location_id, store_id, store_name, region, egg_type, count, price, reference_price, title)';
  const rows = await sql<ScopeRankingRow[]>`
    with due as (${due}),
    scopes as (select distinct region, egg_type, preferred_stores from due),
    -- Once, not once per scope: inlined, the listings (a run's price events, or every current
    -- price) would be worked out again for each of the scopes joined to them.
    listings as materialized (${listings}),
    -- Every scope is a union of cells (a region, an egg type and a store), and a scope's best 30 are
    -- among its cells' best 30: the listings are cut to those first, so each scope ranks a few
    -- hundred candidates instead of all its listings.
    cells as (
      select x.*,
             row_number() over (partition by x.region, x.egg_type, x.store_id order by x.per_dozen, x.price, x.product_id, x.location_id) as cell_price,
             row_number() over (partition by x.region, x.egg_type, x.store_id, x.dropped order by x.per_dozen, x.price, x.product_id, x.location_id) as cell_drop
      from listings x
    ),
    candidates as materialized (
      select * from cells where cell_price <= ${CANDIDATES} or (dropped and cell_drop <= ${CANDIDATES})
    ),
    ranked as (
      select sc.region as s_region, sc.egg_type as s_egg_type, sc.preferred_stores as s_stores, x.*,
             row_number() over (partition by sc.region, sc.egg_type, sc.preferred_stores order by x.per_dozen, x.price, x.product_id, x.location_id) as by_price,
             row_number() over (partition by sc.region, sc.egg_type, sc.preferred_stores, x.dropped order by x.per_dozen, x.price, x.product_id, x.location_id) as by_drop
      from scopes sc
      join candidates x
        on (sc.region is null or x.region = sc.region)
       and (sc.egg_type is null or x.egg_type = sc.egg_type)
       and (cardinality(sc.preferred_stores) = 0 or x.store_id = any(sc.preferred_stores))
    )
    select s_region as region, s_egg_type as egg_type, s_stores as preferred_stores,
           json_agg(${sql.unsafe(tuple)} order by by_price) filter (where by_price <= ${CANDIDATES}) as by_price,
           json_agg(${sql.unsafe(tuple)} order by by_drop) filter (where dropped and by_drop <= ${CANDIDATES}) as by_drop
    from ranked
    group by s_region, s_egg_type, s_stores`;
  // Each scope's candidates become listings once, shared by the subscriptions of the scope.
  return new Map(
    rows.map((r) => {
      const byPrice = (r.by_price ?? []).map(listingOf);
      return [
        scopeKey(r),
        { byPrice, perDozen: byPrice.map((l) => (l.price / l.count) * 12), byDrop: (r.by_drop ?? []).map(listingOf) },
      ];
    }),
  );
}

function dueSubscriptions(
  sql: Db,
  frequency: 'immediately' | 'daily' | 'weekly',
  periodKey: string | null,
  thresholdOnly = false,
): Fragment {
  return sql`
    select id, email, region, egg_type, preferred_stores, price_threshold::float8 as price_threshold
    from subscriptions sub
    where active and confirmed_at is not null and notification_frequency = ${frequency}
      ${thresholdOnly ? sql`and price_threshold is not null` : sql``}
      ${periodKey ? sql`and not exists (select 1 from alert_deliveries d where d.subscription_id = sub.id and d.period_key = ${periodKey})` : sql``}`;
}

export function eventKey(listing: Pick<MatchListing, 'product_id' | 'location_id' | 'price'>): string {
  return `price:${listing.product_id}:${listing.location_id}:${listing.price.toFixed(2)}`;
}

function toRow(sub: DueSubscription, listing: MatchListing, role: MatchRow['role']): MatchRow {
  return {
    subscription_id: sub.id,
    email: sub.email,
    region_filter: sub.region,
    egg_type_filter: sub.egg_type,
    preferred_stores: sub.preferred_stores,
    price_threshold: sub.price_threshold,
    ...listing,
    role,
  };
}

/**
 * A subscription's matches from its scope's candidates: under its threshold (a prefix of the
 * ranking by price per dozen) or, without one, the dropped ones; the best ten not already alerted.
 */
function matchesOf(sub: DueSubscription, scope: ScopeListings | undefined, excluded?: Set<string>): MatchListing[] {
  if (!scope) return [];
  let ranked = scope.byDrop;
  let end = ranked.length;
  if (sub.price_threshold !== null) {
    const threshold = sub.price_threshold + 1e-9;
    ranked = scope.byPrice;
    end = 0;
    while (end < scope.perDozen.length && scope.perDozen[end]! <= threshold) end++;
  }
  if (!excluded) return ranked.slice(0, Math.min(end, MATCH_LIMIT));
  const kept: MatchListing[] = [];
  for (let i = 0; i < end && kept.length < MATCH_LIMIT; i++)
    if (!excluded.has(eventKey(ranked[i]!))) kept.push(ranked[i]!);
  return kept;
}

/**
 * Immediate alerts after a scrape run, or after some visits of a visit day: their price events (a
 * listing seen for the first time, or at a price other than its previous observation's) matched
 * against the confirmed, active "immediately" subscriptions, the best ten per subscription by
 * price per dozen, leaving out price events already alerted to that subscription.
 */
export type ImmediateSource = { runId: number } | { coverageRunId: number; locationIds: number[] };

/** One subscription's matches, best first; listings are shared between the subscriptions of a scope. */
export interface SubscriptionMatches {
  subscription: DueSubscription;
  listings: MatchListing[];
}

/**
 * The price events a source wrote: the observations that are still their listing's current entry
 * and whose price differs from the listing's previous observation (or that have none). The previous
 * observation is one index probe per event, newest partition first.
 */
function priceEvents(sql: Db, from: ImmediateSource): Fragment {
  // A visit day's observations carry no scrape run: they are the current entries of the visited
  // stores observed since each visit started.
  const written =
    'runId' in from
      ? sql`from price_observations o join price_entries e on e.observation_id = o.id where o.scrape_run_id = ${from.runId}`
      : sql`from coverage_visits v
          join price_entries e on e.location_id = v.location_id and e.observed_at >= v.started_at
          join price_observations o on o.id = e.observation_id and o.observed_on = (e.observed_at at time zone 'UTC')::date
          where v.run_id = ${from.coverageRunId} and v.status = 'succeeded'
            and v.location_id = any(${sql.array(from.locationIds)}::int[])`;
  return sql`
    select ${sql.unsafe(LISTING)}
    from (select e.*, o.observed_on, o.price as observed_price ${written} and o.source = 'scrape') e
    join store_locations l on l.id = e.location_id
    join stores s on s.id = l.store_id and s.active
    join products p on p.id = e.product_id
    -- The previous observation, looked for in the week before first (the partitions of the week
    -- only: a bound on the partition key lets PostgreSQL skip the others), and in the whole history
    -- only when the week has none; an array, so that "none" (a first sighting) stays null.
    cross join lateral (
      select coalesce(
        (select array[pp.price] from price_observations pp
         where pp.product_id = e.product_id and pp.location_id = e.location_id
           and pp.observed_on < e.observed_on and pp.observed_on >= e.observed_on - 7
         order by pp.observed_on desc limit 1),
        (select array[pp.price] from price_observations pp
         where pp.product_id = e.product_id and pp.location_id = e.location_id and pp.observed_on < e.observed_on - 7
         order by pp.observed_on desc limit 1)) as price
      offset 0) prev
    where prev.price[1] is distinct from e.observed_price`;
}

export async function immediateMatches(sql: Db, source: number | ImmediateSource): Promise<SubscriptionMatches[]> {
  const from: ImmediateSource = typeof source === 'number' ? { runId: source } : source;
  // The events are ranked per scope while the subscriptions are read, on another connection.
  const [rankings, subscriptions] = await Promise.all([
    rankByScope(sql, dueSubscriptions(sql, 'immediately', null), priceEvents(sql, from)),
    sql<DueSubscription[]>`${dueSubscriptions(sql, 'immediately', null)}`,
  ]);
  if (rankings.size === 0) return [];
  const keys = new Set<string>();
  for (const scope of rankings.values())
    for (const listing of [...scope.byPrice, ...scope.byDrop]) keys.add(eventKey(listing));
  // Price events already alerted, for the candidate events only: few (a listing back at a price it
  // had before), so only their subscriptions are matched with exclusions.
  const sent = new Map<number, Set<string>>();
  for (const d of await sql<{ subscription_id: number; period_key: string }[]>`
    select subscription_id, period_key from alert_deliveries where period_key = any(${sql.array([...keys])}::text[])`) {
    let set = sent.get(d.subscription_id);
    if (!set) sent.set(d.subscription_id, (set = new Set()));
    set.add(d.period_key);
  }
  const result: SubscriptionMatches[] = [];
  for (const sub of subscriptions) {
    const listings = matchesOf(sub, rankings.get(scopeKey(sub)), sent.get(sub.id));
    if (listings.length) result.push({ subscription: sub, listings });
  }
  return result;
}

const CURRENT_LISTINGS = (sql: Db): Fragment => sql`
  select ${sql.unsafe(LISTING)}, e.observed_at
  from price_entries e
  join store_locations l on l.id = e.location_id
  join stores s on s.id = l.store_id and s.active
  join products p on p.id = e.product_id
  where e.source = 'scrape'`;

/**
 * The daily digest of a day: for each confirmed, active "daily" subscription not yet sent that
 * day's digest and with at least one match, the day's matches (listings observed that day that the
 * rule matches, best ten) and the five cheapest current listings of its scope.
 */
export async function dailyDigestMatches(sql: Db, day: string): Promise<MatchRow[]> {
  const due = dueSubscriptions(sql, 'daily', `daily:${day}`);
  const today = sql`select * from (${CURRENT_LISTINGS(sql)}) c where (c.observed_at at time zone 'UTC')::date = ${day}::date`;
  const [todays, current, subscriptions] = await Promise.all([
    rankByScope(sql, due, today),
    rankByScope(sql, due, CURRENT_LISTINGS(sql)),
    sql<DueSubscription[]>`${dueSubscriptions(sql, 'daily', `daily:${day}`)}`,
  ]);
  const rows: MatchRow[] = [];
  for (const sub of subscriptions) {
    const matches = matchesOf(sub, todays.get(scopeKey(sub)));
    if (matches.length === 0) continue;
    for (const t of matches) rows.push(toRow(sub, t, 'match'));
    for (const t of (current.get(scopeKey(sub))?.byPrice ?? []).slice(0, CHEAPEST))
      rows.push(toRow(sub, t, 'cheapest'));
  }
  return rows;
}

export interface WeeklyRow {
  subscription_id: number;
  email: string;
  region_filter: Region | null;
  egg_type_filter: EggType | null;
  preferred_stores: string[];
  price_threshold: number | null;
  lowest_per_dozen: number;
  lowest_store_name: string;
  lowest_region: Region;
  lowest_store_id: string;
  lowest_egg_type: EggType;
  lowest_count: number;
  lowest_price: number;
  lowest_title: string;
  average: number;
  previous_average: number | null;
  cheapest_store_name: string;
  cheapest_store_per_dozen: number;
}

/**
 * The weekly summary of the week ending before `monday`: per confirmed, active "weekly"
 * subscription not yet sent that week's summary, the week's lowest price per dozen (and where),
 * the average against the week before, and the cheapest store on average. Subscriptions whose
 * scope had no retailer price that week get no row (no empty summary).
 */
export async function weeklySummaries(sql: Db, monday: string): Promise<WeeklyRow[]> {
  return sql<WeeklyRow[]>`
    with due as (
      select id, email, region, egg_type, preferred_stores, price_threshold
      from subscriptions sub
      where active and confirmed_at is not null and notification_frequency = 'weekly'
        and not exists (select 1 from alert_deliveries d where d.subscription_id = sub.id and d.period_key = ${`weekly:${monday}`})
    ), scopes as (
      select distinct region, egg_type, preferred_stores from due
    ), week as (
      select o.product_id, o.location_id, o.price, o.observed_on, l.store_id, s.store_name, l.region, p.egg_type, p.count, p.title,
             o.price / p.count * 12 as per_dozen, o.observed_on >= ${monday}::date - 7 as this_week
      from price_observations o
      join store_locations l on l.id = o.location_id
      join stores s on s.id = l.store_id and s.active
      join products p on p.id = o.product_id
      where o.source = 'scrape' and o.observed_on >= ${monday}::date - 14 and o.observed_on < ${monday}::date
    ), in_scope as (
      select sc.region as s_region, sc.egg_type as s_egg_type, sc.preferred_stores as s_stores, w.*
      from scopes sc
      join week w
        on (sc.region is null or w.region = sc.region)
       and (sc.egg_type is null or w.egg_type = sc.egg_type)
       and (cardinality(sc.preferred_stores) = 0 or w.store_id = any(sc.preferred_stores))
    ), averages as (
      select s_region, s_egg_type, s_stores,
             avg(per_dozen) filter (where this_week) as average,
             avg(per_dozen) filter (where not this_week) as previous_average
      from in_scope group by s_region, s_egg_type, s_stores
      having count(*) filter (where this_week) > 0
    ), lowest as (
      select distinct on (s_region, s_egg_type, s_stores) *
      from in_scope where this_week
      order by s_region, s_egg_type, s_stores, per_dozen, price, product_id, location_id
    ), store_avg as (
      select distinct on (s_region, s_egg_type, s_stores) s_region, s_egg_type, s_stores, store_name, per_dozen
      from (select s_region, s_egg_type, s_stores, store_name, avg(per_dozen) as per_dozen
            from in_scope where this_week group by s_region, s_egg_type, s_stores, store_name) a
      order by s_region, s_egg_type, s_stores, per_dozen, store_name
    )
    select d.id as subscription_id, d.email, d.region as region_filter, d.egg_type as egg_type_filter, d.preferred_stores,
           d.price_threshold::float8 as price_threshold,
           lw.per_dozen::float8 as lowest_per_dozen, lw.store_name as lowest_store_name, lw.region as lowest_region,
           lw.store_id as lowest_store_id, lw.egg_type as lowest_egg_type, lw.count as lowest_count, lw.price::float8 as lowest_price,
           lw.title as lowest_title, av.average::float8 as average, av.previous_average::float8 as previous_average,
           sa.store_name as cheapest_store_name, sa.per_dozen::float8 as cheapest_store_per_dozen
    from due d
    join averages av on av.s_region is not distinct from d.region and av.s_egg_type is not distinct from d.egg_type and av.s_stores = d.preferred_stores
    join lowest lw on lw.s_region is not distinct from d.region and lw.s_egg_type is not distinct from d.egg_type and lw.s_stores = d.preferred_stores
    join store_avg sa on sa.s_region is not distinct from d.region and sa.s_egg_type is not distinct from d.egg_type and sa.s_stores = d.preferred_stores`;
}

/** Weekly summaries with a threshold list the current listings at or under it (best ten). */
export async function weeklyUnderThreshold(sql: Db, monday: string): Promise<MatchRow[]> {
  const [rankings, subscriptions] = await Promise.all([
    rankByScope(sql, dueSubscriptions(sql, 'weekly', `weekly:${monday}`, true), CURRENT_LISTINGS(sql)),
    sql<DueSubscription[]>`${dueSubscriptions(sql, 'weekly', `weekly:${monday}`, true)}`,
  ]);
  const rows: MatchRow[] = [];
  for (const sub of subscriptions)
    for (const t of matchesOf(sub, rankings.get(scopeKey(sub)))) rows.push(toRow(sub, t, 'match'));
  return rows;
}
