// The midnight guard of a test run (the unit tests' global setup and the browser journeys' server).
// The seeded prices end on the UTC day the database is built, and many tests compare "today" in
// the database with that day: a run that crosses a UTC midnight would compare two days. A run
// that starts this close to midnight (TEST_MIDNIGHT_GUARD_MINUTES, or the run's default; 0 turns
// the guard off) first waits for the new day.

export function msToWaitForMidnight(now: Date, guardMinutes: number): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const left = next - now.getTime();
  return guardMinutes > 0 && left < guardMinutes * 60_000 ? left + 5_000 : 0;
}

/** How long a run starting now waits, with TEST_MIDNIGHT_GUARD_MINUTES or the run's default window. */
export function midnightWait(defaultMinutes: number, now = new Date()): number {
  const guard = Number(process.env.TEST_MIDNIGHT_GUARD_MINUTES ?? defaultMinutes);
  return msToWaitForMidnight(now, Number.isFinite(guard) ? guard : defaultMinutes);
}

export async function waitForMidnightIfClose(
  defaultMinutes: number,
  log: (line: string) => void = console.log,
): Promise<void> {
  const wait = midnightWait(defaultMinutes);
  if (wait === 0) return;
  log(`Waiting ${Math.ceil(wait / 1000)} s for the UTC day to turn, so the run does not cross midnight`);
  await new Promise((resolve) => setTimeout(resolve, wait));
}
