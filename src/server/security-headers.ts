// The security headers every answer carries (Content-Security-Policy, nosniff, frame and referrer
// policies, HSTS in production): helmet's middleware, built once at start. The Fastify wrapper
// builds it anew for every request (parsing every CSP directive each time), which came to about a
// tenth of the web process's CPU per cached read under load (bench/reliability/load.ts). Our
// headers are the same for every answer (no per-route options, no nonces), so one instance serves
// all, and it sets them on the raw response exactly as the wrapper did.
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const apply = helmet(options);
  app.addHook('onRequest', (req, reply, done) => {
    apply(req.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
