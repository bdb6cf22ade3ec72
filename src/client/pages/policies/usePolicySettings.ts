import { trpc } from '#client/lib/trpc.ts';
import type { PolicySettings } from '#shared/privacy.ts';

/**
 * This deployment's contact, email provider and rate limits for the policy pages. While they load,
 * or if they cannot be read, the pages fall back to wording that needs none (undefined).
 */
export function usePolicySettings(): { settings: PolicySettings | undefined; loading: boolean } {
  const query = trpc.policies.settings.useQuery(undefined, { staleTime: Infinity, retry: 1 });
  return { settings: query.data, loading: query.isPending && !query.isError };
}
