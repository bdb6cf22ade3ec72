// The data the server inlined in index.html for this page's first queries (src/server/initial-data.ts),
// put in the query cache before the first render, under the keys tRPC's hooks use: the page then
// renders with its data at once instead of fetching it after its first paint.
import type { QueryClient } from '@tanstack/react-query';
import { INITIAL_DATA_ELEMENT_ID, type InitialEntry } from '#shared/initial-data.ts';
import { transformer } from '#shared/transformer.ts';

type Serialized = Parameters<typeof transformer.deserialize>[0];

const isEntry = (value: unknown): value is InitialEntry =>
  typeof value === 'object' && value !== null && typeof (value as InitialEntry).path === 'string' && 'data' in value;

/** tRPC's query key for a procedure path and input (as @trpc/react-query builds it for useQuery). */
export function trpcQueryKey(path: string, input: unknown): unknown[] {
  return [path.split('.'), input === undefined ? { type: 'query' } : { input, type: 'query' }];
}

/** Seeds queryClient from the page's data block, if it has one; returns how many queries it seeded. */
export function seedInitialData(queryClient: QueryClient, doc: Pick<Document, 'getElementById'> = document): number {
  const text = doc.getElementById(INITIAL_DATA_ELEMENT_ID)?.textContent;
  if (!text) return 0;
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return 0;
  }
  if (!Array.isArray(entries)) return 0;
  let seeded = 0;
  for (const entry of entries) {
    if (!isEntry(entry)) continue;
    try {
      queryClient.setQueryData(
        trpcQueryKey(entry.path, entry.input),
        transformer.deserialize(entry.data as Serialized),
      );
      seeded++;
    } catch {
      // A malformed entry is skipped: its component fetches the data itself.
    }
  }
  return seeded;
}
