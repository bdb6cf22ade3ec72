-- Immediate alerts of a visit day come in batches (README "Price alerts"): a chunk that wrote a
-- retailer's prices queues the run's alert job for the end of the window
-- (ALERT_IMMEDIATE_WINDOW_MINUTES), and the chunks that commit before it runs join that job. The
-- job matches the visits not matched yet and marks them here, so the next batch takes only the
-- visits after them. Visits from before this column alerted per chunk and stay null; no job of
-- theirs is queued any more.
alter table coverage_visits add column alerts_matched_at timestamptz;
