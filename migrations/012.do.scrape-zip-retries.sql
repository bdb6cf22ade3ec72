-- How hard each ZIP code of a scrape run was to read: the requests sent again after a timeout, a
-- network error or a 5xx answer, and the 429 answers whose Retry-After was waited out (how many,
-- and how long in all). The run's details list them per ZIP code.
alter table scrape_run_zips
  add column retries integer not null default 0 check (retries >= 0),
  add column rate_limit_waits integer not null default 0 check (rate_limit_waits >= 0),
  add column rate_limit_wait_ms bigint not null default 0 check (rate_limit_wait_ms >= 0);
