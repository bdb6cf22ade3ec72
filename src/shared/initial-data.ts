// The data block of index.html that carries a page's first query answers from the server
// (src/server/initial-data.ts) to the client's query cache (src/client/lib/initialData.ts).

/** The id of the <script type="application/json"> element. */
export const INITIAL_DATA_ELEMENT_ID = 'initial-data';

export interface InitialQuery {
  /** A tRPC procedure path, 'stats.get'. */
  path: string;
  /** Its input as the client sends it (plain JSON), or undefined for none. */
  input?: unknown;
}

/** One inlined answer: the query, and its result as tRPC's transformer serialises it. */
export interface InitialEntry extends InitialQuery {
  data: unknown;
}
