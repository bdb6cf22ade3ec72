// Starting a coverage plan's visit day: the run row and its planning job in one transaction.
// (The admin part's src/server/queries/coverage.ts exports the same startVisitDay for the API;
// until it lands, the scheduler and the tests use this one. When both are there, this file goes
// and its importers import coverage.ts.)
import { TRPCError } from '@trpc/server';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { Sql } from '../db.ts';
import { VISIT_DAY_TASK } from './coverage-visits.ts';

export const VISIT_DAY_JOB_MAX_ATTEMPTS = 5;
export const visitDayJobKey = (runId: number) => `coverage-visit-day:${runId}`;

/** The UTC day of a moment, as YYYY-MM-DD. */
export const utcDay = (at: Date = new Date()) => at.toISOString().slice(0, 10);

/**
 * Queues a visit day of the retailer's plan: a coverage_runs row (status 'queued', the plan's
 * scope, the UTC day) and the coverage__visit_day job that plans its stores, in one transaction.
 * A CONFLICT error when the retailer has no plan (or it is paused or turned off, or the store
 * inactive), a visit day is already queued or running, or (scheduled) this day already has its
 * scheduled visit day.
 */
export async function startVisitDay(
  sql: Sql,
  { store, userId, trigger, day }: { store: StoreId; userId: string | null; trigger: 'manual' | 'schedule'; day?: string },
): Promise<{ runId: number }> {
  const name = SCRAPER_NAMES[store];
  const runDay = day ?? utcDay();
  return sql.begin(async (tx) => {
    const [plan] = await tx<Array<{ scope: unknown; enabled: boolean; paused_at: Date | null; active: boolean }>>`
      select p.scope, p.enabled, p.paused_at, s.active from coverage_plans p join stores s on s.id = p.store_id where p.store_id = ${store}`;
    if (!plan) throw new TRPCError({ code: 'CONFLICT', message: `${name} has no coverage plan yet: save one first.` });
    if (!plan.active) throw new TRPCError({ code: 'CONFLICT', message: `${name} is inactive; activate the store first.` });
    if (plan.paused_at) throw new TRPCError({ code: 'CONFLICT', message: `${name}'s plan is paused; save the plan to resume it.` });
    if (!plan.enabled) throw new TRPCError({ code: 'CONFLICT', message: `${name}'s plan is turned off; save the plan to turn it on.` });
    const [run] = await tx<Array<{ id: number }>>`
      insert into coverage_runs (store_id, kind, scope, trigger, day, created_by)
      values (${store}, 'visit', ${tx.json(plan.scope as never)}, ${trigger}, ${runDay}, ${userId})
      on conflict do nothing
      returning id`;
    if (!run) {
      const [active] = await tx`select 1 from coverage_runs where store_id = ${store} and kind = 'visit' and status in ('queued', 'running')`;
      throw new TRPCError({
        code: 'CONFLICT',
        message: active ? `A visit day of ${name} is already queued or running.` : `${name}'s scheduled visit day of ${runDay} has already started.`,
      });
    }
    await tx`
      select graphile_worker.add_job(${VISIT_DAY_TASK}, json_build_object('runId', ${run.id}::int),
        job_key := ${visitDayJobKey(run.id)}, max_attempts := ${VISIT_DAY_JOB_MAX_ATTEMPTS})`;
    return { runId: run.id };
  });
}
