// Load generator for bench/run.ts, in a process of its own so it never shares the server's
// event loop: receives { id, url, connections, warmup, duration } over IPC, runs autocannon
// (a warm-up run, then the measured run) and answers { id, result } with the measured numbers.
// timeout: seconds before a request counts as timed out (30 when not given); headers: sent with
// every request.
import autocannon from 'autocannon';

function summarise(result) {
  return {
    requestsPerSec: result.requests.average,
    requestsTotal: result.requests.total,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: result.latency.average,
      max: result.latency.max,
    },
    bytesPerSec: result.throughput.average,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration: result.duration,
  };
}

process.on('message', async (message) => {
  if (message?.type === 'exit') {
    process.exit(0);
  }
  const { id, url, connections, warmup, duration, timeout = 30, headers = {} } = message;
  try {
    if (warmup > 0) await autocannon({ url, connections, duration: warmup, timeout, headers });
    const result = await autocannon({ url, connections, duration, timeout, headers });
    process.send({ id, result: summarise(result), maxRssKb: process.resourceUsage().maxRSS });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});

process.send({ ready: true });
