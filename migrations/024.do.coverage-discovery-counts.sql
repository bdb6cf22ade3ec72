-- A discovery run counts what it found the way the Coverage tab says it (README "Coverage"): the
-- stores found inside the run's scope apart from those answered near it but outside (null for runs
-- from before this column, which did not count them), and the stores a locator answered that could
-- not be filed (no ZIP code, coordinates or city to place them), in all and by reason
-- ([{ "reason": ..., "stores": n }], most first).
alter table coverage_runs
  add column stores_in_scope integer,
  add column stores_skipped integer not null default 0,
  add column skipped_reasons jsonb not null default '[]';

-- A visit day that found no store of its plan due (every one visited within its interval) is
-- marked, so the tab keeps the last day that visited stores in view and says when the next is due.
alter table coverage_runs add column nothing_due boolean not null default false;
