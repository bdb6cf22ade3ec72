-- Fixed-window rate limit counters, shared by every web process (src/server/auth/rate-limit.ts).
create table rate_limits (
  key           text not null,
  window_start  timestamptz not null,
  hits          integer not null default 1,
  primary key (key, window_start)
);
create index rate_limits_window_idx on rate_limits (window_start);
