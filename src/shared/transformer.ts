// The one place superjson is imported: the tRPC server and client share this transformer.
import superjson from 'superjson';

export const transformer = superjson;
