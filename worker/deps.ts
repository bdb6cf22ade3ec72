import type { Sql } from '#server/db.ts';

/** What tasks need from the process: passed in, so tests give their own database and settings. */
export interface WorkerDeps {
  sql: Sql;
  email: {
    resendApiKey?: string | undefined;
    from: string;
    /** Resend's API address (tests point it at a local server). */
    resendBaseUrl?: string;
  };
}
