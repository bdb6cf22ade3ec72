// The tRPC client for React. Only the router's type crosses from the server; the transformer
// is the shared one so dates and other non-JSON values round-trip the same way on both sides.
import { createTRPCReact, httpBatchLink, httpLink, splitLink } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '#server/routers/_app.ts';
import { transformer } from '#shared/transformer.ts';

export const trpc = createTRPCReact<AppRouter>();

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/**
 * A non-OK response that is not a tRPC error body (a proxy's 502, an HTML error page)
 * fails with 'status: body', or the status text when the body is empty, rather than a JSON
 * parse error.
 */
async function fetchWithCredentials(url: URL | RequestInfo, options?: RequestInit): Promise<Response> {
  // Every request carries the session cookie.
  const response = await fetch(url, { ...options, credentials: 'include' });
  if (!response.ok && !response.headers.get('content-type')?.includes('application/json')) {
    const body = (await response.text()).trim().slice(0, 300);
    throw new Error(`${response.status}: ${body || response.statusText}`);
  }
  return response;
}

/**
 * Calls are batched, except those that ask not to be (`trpc: { context: { unbatched: true } }`):
 * the news ticker of the page frame, which every page loads, travels alone so it neither waits
 * for nor changes the status of the page's own calls, and its URL is the same on every page (one
 * cached answer).
 */
export function createTrpcClient() {
  const options = { url: '/trpc', transformer, fetch: fetchWithCredentials };
  return trpc.createClient({
    links: [
      splitLink({
        condition: (op) => op.context.unbatched === true,
        true: httpLink(options),
        false: httpBatchLink(options),
      }),
    ],
  });
}
