// What the Privacy Policy and Terms of Service pages say about this deployment: the operator's
// address, whether an email provider is used, and the rate limits as the server enforces them.
import { ACCOUNT_LIMIT_NAMES, type PolicySettings } from '#shared/privacy.ts';
import { LIMITS } from '../auth/rate-limit.ts';
import { publicProcedure, router } from '../trpc.ts';

export const policiesRouter = router({
  settings: publicProcedure.query(({ ctx }): PolicySettings => {
    const scale = ctx.config.rateLimitScale ?? 1;
    return {
      contactEmail: ctx.config.contactEmail ?? null,
      emailTransport: ctx.config.emailTransport ?? 'outbox',
      publicApiRequestsPerMinute: ctx.config.publicApiRateLimit ?? 0,
      accountLimits: Object.fromEntries(
        ACCOUNT_LIMIT_NAMES.map((name) => [
          name,
          { max: LIMITS[name].max * scale, windowSeconds: LIMITS[name].windowSeconds },
        ]),
      ) as PolicySettings['accountLimits'],
    };
  }),
});
