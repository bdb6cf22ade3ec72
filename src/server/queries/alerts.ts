// Price events and alert matching, set-based (README "Price alerts"). Only retailer prices
// (source 'scrape') take part: sample and demo prices never alert anyone.
//
// The rule (the same as matchesSubscription in src/shared/subscriptions.ts): region, egg type and
// preferred stores (none means all) must match; with a threshold, the price per dozen must be at
// or below it; without one, the price must have dropped at least 5% against the price 7 days
// before. Subscriptions share scopes (region, egg type, stores), so listings are ranked once per
// scope and each subscription takes the best of its scope's ranking that pass its threshold.
import { DROP_MATCH_PERCENT } from '#shared/subscriptions.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';

export interface MatchRow {
  subscription_id: number;
  email: string;
  region_filter: Region | null;
  egg_type_filter: EggType | null;
  preferred_stores: string[];
  price_threshold: number | null;
  unsubscribe_token: string;
  product_id: number;
  location_id: number;
  store_id: string;
  store_name: string;
  region: Region;
  egg_type: EggType;
  count: number;
  price: number;
  reference_price: number | null;
  title: string;
  /** 'match' (a listing the rule matches) or 'cheapest' (daily digest: cheapest current in scope). */
  role: 'match' | 'cheapest';
}

const DROP = 1 - DROP_MATCH_PERCENT / 100;

/** The listing columns every matcher reads, from price_entries e, locations l, products p, stores s. */
const LISTING = `e.product_id, e.location_id, l.store_id, s.store_name, l.region, p.egg_type, p.count, e.price::float8 as price,
  e.reference_price::float8 as reference_price, p.title, e.price / p.count * 12 as per_dozen,
  (e.reference_price is not null and e.price <= e.reference_price * ${DROP}) as dropped`;

/**
 * Immediate alerts after a scrape run: the run's price events (a listing seen for the first time,
 * or at a price other than its previous observation's) matched against the confirmed, active
 * "immediately" subscriptions, best ten per subscription by price per dozen, leaving out price
 * events already alerted to that subscription.
 */
export async function immediateMatches(sql: Db, runId: number): Promise<MatchRow[]> {
  return sql<MatchRow[]>`
    with events as (
      select ${sql.unsafe(LISTING)}
      from price_observations o
      join price_entries e on e.observation_id = o.id
      join store_locations l on l.id = e.location_id
      join stores s on s.id = l.store_id and s.active
      join products p on p.id = e.product_id
      where o.scrape_run_id = ${runId} and o.source = 'scrape'
        and not exists (
          select 1 from price_observations prev
          where prev.product_id = o.product_id and prev.location_id = o.location_id
            and prev.observed_on < o.observed_on and prev.observed_on = (
              select max(pp.observed_on) from price_observations pp
              where pp.product_id = o.product_id and pp.location_id = o.location_id and pp.observed_on < o.observed_on)
            and prev.price = o.price)
    ), due as (
      select id, email, region, egg_type, preferred_stores, price_threshold, unsubscribe_token
      from subscriptions
      where active and confirmed_at is not null and notification_frequency = 'immediately'
    )
    ${rankedMatches(sql, sql`events`, 10)}
    select m.* from matched m
    where not exists (
      select 1 from alert_deliveries d
      where d.subscription_id = m.subscription_id
        and d.period_key = 'price:' || m.product_id || ':' || m.location_id || ':' || m.price::numeric(8,2))`;
}

/**
 * The shared tail of every matcher: given CTEs "due" (subscriptions) and the listings relation,
 * ranks the listings once per scope (threshold rule and drop rule separately) and joins each
 * subscription to the first `limit` of its scope's ranking that pass its own rule. Defines the
 * CTEs scopes, ranked and matched (ending with "matched as (...)", so the caller selects from it).
 */
function rankedMatches(sql: Db, listings: ReturnType<Db>, limit: number) {
  return sql`
    , scopes as (
      select distinct region, egg_type, preferred_stores from due
    ), ranked as (
      select sc.region as s_region, sc.egg_type as s_egg_type, sc.preferred_stores as s_stores, x.*,
             row_number() over (partition by sc.region, sc.egg_type, sc.preferred_stores order by x.per_dozen, x.price, x.product_id, x.location_id) as by_price,
             case when x.dropped then row_number() over (partition by sc.region, sc.egg_type, sc.preferred_stores, x.dropped order by x.per_dozen, x.price, x.product_id, x.location_id) end as by_drop
      from scopes sc
      join ${listings} x
        on (sc.region is null or x.region = sc.region)
       and (sc.egg_type is null or x.egg_type = sc.egg_type)
       and (cardinality(sc.preferred_stores) = 0 or x.store_id = any(sc.preferred_stores))
    ), matched as (
      select d.id as subscription_id, d.email, d.region as region_filter, d.egg_type as egg_type_filter, d.preferred_stores,
             d.price_threshold::float8 as price_threshold, d.unsubscribe_token,
             r.product_id, r.location_id, r.store_id, r.store_name, r.region, r.egg_type, r.count, r.price, r.reference_price, r.title,
             'match'::text as role
      from due d
      join ranked r
        on r.s_region is not distinct from d.region and r.s_egg_type is not distinct from d.egg_type and r.s_stores = d.preferred_stores
      -- Three times the limit leaves room for price events a subscription already had (the
      -- caller drops those and keeps the best ones).
      where case when d.price_threshold is not null then r.by_price <= ${limit * 3} and r.per_dozen <= d.price_threshold
                 else r.by_drop <= ${limit * 3} end
    )`;
}

/**
 * The daily digest of a day: for each confirmed, active "daily" subscription not yet sent that
 * day's digest, the day's matches (listings observed that day that the rule matches, best ten)
 * and the five cheapest current listings of its scope.
 */
export async function dailyDigestMatches(sql: Db, day: string): Promise<MatchRow[]> {
  return sql<MatchRow[]>`
    with current_listings as (
      select ${sql.unsafe(LISTING)}, (e.observed_at at time zone 'UTC')::date = ${day}::date as today
      from price_entries e
      join store_locations l on l.id = e.location_id
      join stores s on s.id = l.store_id and s.active
      join products p on p.id = e.product_id
      where e.source = 'scrape'
    ), today as (
      select * from current_listings where today
    ), due as (
      select id, email, region, egg_type, preferred_stores, price_threshold, unsubscribe_token
      from subscriptions sub
      where active and confirmed_at is not null and notification_frequency = 'daily'
        and not exists (select 1 from alert_deliveries d where d.subscription_id = sub.id and d.period_key = ${`daily:${day}`})
    )
    ${rankedMatches(sql, sql`today`, 10)}
    , cheapest as (
      select sc.region as s_region, sc.egg_type as s_egg_type, sc.preferred_stores as s_stores, x.*,
             row_number() over (partition by sc.region, sc.egg_type, sc.preferred_stores order by x.per_dozen, x.price, x.product_id, x.location_id) as rank
      from scopes sc
      join current_listings x
        on (sc.region is null or x.region = sc.region)
       and (sc.egg_type is null or x.egg_type = sc.egg_type)
       and (cardinality(sc.preferred_stores) = 0 or x.store_id = any(sc.preferred_stores))
    )
    select * from matched
    union all
    select d.id, d.email, d.region, d.egg_type, d.preferred_stores, d.price_threshold::float8, d.unsubscribe_token,
           c.product_id, c.location_id, c.store_id, c.store_name, c.region, c.egg_type, c.count, c.price, c.reference_price, c.title,
           'cheapest'
    from due d
    join cheapest c on c.s_region is not distinct from d.region and c.s_egg_type is not distinct from d.egg_type and c.s_stores = d.preferred_stores
    where c.rank <= 5
      and exists (select 1 from matched m where m.subscription_id = d.id)`;
}

export interface WeeklyRow {
  subscription_id: number;
  email: string;
  region_filter: Region | null;
  egg_type_filter: EggType | null;
  preferred_stores: string[];
  price_threshold: number | null;
  unsubscribe_token: string;
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
      select id, email, region, egg_type, preferred_stores, price_threshold, unsubscribe_token
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
           d.price_threshold::float8 as price_threshold, d.unsubscribe_token,
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
  return sql<MatchRow[]>`
    with current_listings as (
      select ${sql.unsafe(LISTING)}
      from price_entries e
      join store_locations l on l.id = e.location_id
      join stores s on s.id = l.store_id and s.active
      join products p on p.id = e.product_id
      where e.source = 'scrape'
    ), due as (
      select id, email, region, egg_type, preferred_stores, price_threshold, unsubscribe_token
      from subscriptions sub
      where active and confirmed_at is not null and notification_frequency = 'weekly' and price_threshold is not null
        and not exists (select 1 from alert_deliveries d where d.subscription_id = sub.id and d.period_key = ${`weekly:${monday}`})
    )
    ${rankedMatches(sql, sql`current_listings`, 10)}
    select * from matched`;
}
