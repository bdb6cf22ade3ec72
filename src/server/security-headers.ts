// The security headers every answer carries (Content-Security-Policy, nosniff, frame and referrer
// policies, HSTS in production): helmet's middleware, built once at start. The Fastify wrapper
// builds it anew for every request (parsing every CSP directive each time), which came to about a
// tenth of the web process's CPU per cached read under load (bench/reliability/load.ts). Our
// headers are the same for every answer (no per-route options, no nonces), so one instance serves
// all, and it sets them on the raw response exactly as the wrapper did. The same headers, worked
// out once, are what the cached reads' early answers carry (cached-reads.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeaders {
  /** The onRequest hook that sets them on every answer. */
  hook: onRequestHookHandler;
  /** The headers it sets (lower-case names), for answers written without the hook. */
  fixed: Readonly<Record<string, string>>;
}

export function securityHeaders(options: Readonly<HelmetOptions>): SecurityHeaders {
  const apply = helmet(options);
  return {
    hook: (req, reply, done) => {
      apply(req.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
    },
    fixed: headersOf(apply),
  };
}

/** What the middleware sets on a response, read from a stand-in response. */
function headersOf(apply: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) =>
      void (headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  apply(
    { headers: {} } as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => (failure = error),
  );
  if (failure) throw failure;
  return headers;
}
