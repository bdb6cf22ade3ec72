-- The outbox's HTML and text (a daily digest is ~14 KiB of them, one email per due subscription)
-- are compressed with lz4 where the server was built with it: about as small as pglz at a fraction
-- of its CPU, which made most of a digest run's writing time. A server without lz4 (the embedded
-- PostgreSQL) keeps pglz. Rows already written keep their compression; both read the same.
do $$
begin
  alter table email_outbox alter column html set compression lz4, alter column text set compression lz4;
exception when feature_not_supported then
  raise notice 'email_outbox keeps pglz: this server was built without lz4';
end $$;
