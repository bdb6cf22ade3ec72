// Worker liveness: each graphile-worker worker of this process beats in worker_heartbeats, so
// worker__recover can tell a dead worker's locked jobs (release them) from a slow one's (leave
// them). Pass `events` to graphile-worker's run() before it creates its workers.
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import type { Sql } from '#server/db.ts';

export interface Liveness {
  events: WorkerEvents;
  stop(): Promise<void>;
}

export function workerLiveness(sql: Sql, intervalMs: number): Liveness {
  const events = new EventEmitter() as WorkerEvents;
  const ids = new Set<string>();
  const beat = async () => {
    if (ids.size === 0) return;
    await sql`
      insert into worker_heartbeats (worker_id, pid, beat_at)
      select id, ${process.pid}, now() from unnest(${sql.array([...ids])}::text[]) as id
      on conflict (worker_id) do update set beat_at = now(), pid = excluded.pid`;
  };
  events.on('worker:create', ({ worker }) => {
    ids.add(worker.workerId);
    beat().catch(() => {});
  });
  events.on('worker:stop', ({ worker }) => {
    ids.delete(worker.workerId);
    sql`delete from worker_heartbeats where worker_id = ${worker.workerId}`.catch(() => {});
  });
  const timer = setInterval(() => beat().catch(() => {}), intervalMs);
  timer.unref();
  return {
    events,
    async stop() {
      clearInterval(timer);
      const stopping = [...ids];
      ids.clear();
      if (stopping.length) await sql`delete from worker_heartbeats where worker_id = any(${sql.array(stopping)}::text[])`.catch(() => {});
    },
  };
}
