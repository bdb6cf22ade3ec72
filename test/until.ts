// Polling for a condition in the fault tests and the reliability campaign: `read` is asked every
// `intervalMs` until it answers true; past `timeoutMs` the wait fails, naming what it waited for.
export async function until(
  read: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
