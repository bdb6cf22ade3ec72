// Which failures the processes treat as a lost database connection (logged, retried, answered 503)
// rather than as a crash: what postgres.js and pg report when a server ends or refuses connections.
import { describe, expect, it } from 'vitest';
import { isConnectionLoss } from './db-errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionLoss', () => {
  it('knows a terminated backend, a cut socket, a closed connection and a refused one', () => {
    expect(isConnectionLoss(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isConnectionLoss(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isConnectionLoss(withCode('write CONNECTION_CLOSED 127.0.0.1:5432', 'CONNECTION_CLOSED'))).toBe(true);
    expect(isConnectionLoss(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isConnectionLoss(withCode('sorry, too many clients already', '53300'))).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    // Wrapped, as a library may rethrow it.
    expect(isConnectionLoss(new Error('query failed', { cause: withCode('terminating connection', '57P01') }))).toBe(
      true,
    );
  });

  it('leaves every other failure to end the process', () => {
    expect(isConnectionLoss(new TypeError("Cannot read properties of null (reading 'write')"))).toBe(false);
    expect(isConnectionLoss(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isConnectionLoss(withCode('syntax error at or near "selec"', '42601'))).toBe(false);
    expect(isConnectionLoss('something else')).toBe(false);
  });
});
