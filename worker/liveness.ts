// Worker liveness: each graphile-worker pool of this process beats in worker_heartbeats under the
// id it locks jobs with (the pool's id, shared by its workers), so worker__recover can tell a dead
// process's locked jobs (release them) from a slow one's (leave them). Pass `events` to
// graphile-worker's run() so the pool is seen as it is created.
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import type { Sql } from '#server/db.ts';
import { beatWorkers, forgetWorker, forgetWorkers } from '#server/queries/worker-recovery.ts';

export interface Liveness {
  events: WorkerEvents;
  stop(): Promise<void>;
}

export function workerLiveness(sql: Sql, intervalMs: number): Liveness {
  const events = new EventEmitter() as WorkerEvents;
  const ids = new Set<string>();
  const beat = async () => {
    if (ids.size === 0) return;
    await beatWorkers(sql, [...ids]);
  };
  events.on('pool:create', ({ workerPool }) => {
    ids.add(workerPool.id);
    beat().catch(() => {});
  });
  events.on('pool:release', ({ workerPool }) => {
    ids.delete(workerPool.id);
    forgetWorker(sql, workerPool.id).catch(() => {});
  });
  const timer = setInterval(() => beat().catch(() => {}), intervalMs);
  timer.unref();
  return {
    events,
    async stop() {
      clearInterval(timer);
      const stopping = [...ids];
      ids.clear();
      if (stopping.length) await forgetWorkers(sql, stopping).catch(() => {});
    },
  };
}
