// The public API's rate limit (PUBLIC_API_RATE_LIMIT): requests a minute per client address to
// the public GETs together, counted in memory by each web process. A window of a minute starts
// at an address's first request; beyond the limit, 429 with Retry-After until the window ends.
// IPv6 addresses count per /64 network (what one host is given, so rotating addresses within it
// gains nothing), IPv4-mapped IPv6 addresses as their IPv4 address. Every answer says where the
// client stands in the IETF draft's headers: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset.
//
// It is synchronous, one map look-up per request: the cached public reads are answered before the
// rest of the request's work (cached-reads.ts), and an asynchronous limiter cost them about a
// tenth of their throughput under load (docs/decisions/006-load.md).
import ipaddr from 'ipaddr.js';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetS: number;
  exceeded: boolean;
}

/** Where a request stands, once counted (a request is counted once, whichever hook sees it first). */
const COUNTED = Symbol('public rate limit state');

type Counted = FastifyRequest & { [COUNTED]?: RateLimitState };

/** The key an address is counted under. */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address;
  try {
    const parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6') {
      const v6 = parsed as ipaddr.IPv6;
      if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
      return `${v6.parts
        .slice(0, 4)
        .map((part) => part.toString(16))
        .join(':')}::/64`;
    }
    return parsed.toString();
  } catch {
    return address.toLowerCase();
  }
}

export class PublicRateLimit {
  private readonly windows = new Map<string, { count: number; start: number }>();

  constructor(
    readonly max: number,
    readonly windowMs = 60_000,
    /** Addresses tracked at most; beyond it the oldest window is forgotten. */
    private readonly maxAddresses = 100_000,
  ) {}

  /** Counts one request from the address. */
  take(address: string, now = Date.now()): RateLimitState {
    const key = addressKey(address);
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs) {
      // A new window goes to the back: the map stays in order of window start.
      if (window !== undefined) this.windows.delete(key);
      else if (this.windows.size >= this.maxAddresses) this.windows.delete(this.windows.keys().next().value!);
      window = { count: 0, start: now };
      this.windows.set(key, window);
    }
    window.count++;
    return {
      limit: this.max,
      remaining: Math.max(0, this.max - window.count),
      resetS: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
      exceeded: window.count > this.max,
    };
  }

  /** Counts the request unless it was counted already, and remembers the outcome on it. */
  count(req: FastifyRequest): RateLimitState {
    const counted = req as Counted;
    return (counted[COUNTED] ??= this.take(req.ip));
  }

  /**
   * The route hook: counts the request (once), sets the RateLimit headers and refuses one over
   * the limit with 429, Retry-After and a message.
   */
  hook(): onRequestHookHandler {
    return (req: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      const state = this.count(req);
      reply.headers(rateLimitHeaders(state));
      if (!state.exceeded) return done();
      reply.header('retry-after', String(state.resetS));
      done(
        Object.assign(
          new Error(
            `Too many requests: at most ${state.limit} a minute from one address to the public API. Try again in ${state.resetS} second${state.resetS === 1 ? '' : 's'}.`,
          ),
          {
            statusCode: 429,
          },
        ),
      );
    };
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetS),
  };
}
