// What `npm run bench:reliability` (bench/reliability.ts) hands each section and what it gets
// back. A section is a module exporting `async function run(ctx: SectionContext): Promise<SectionResult>`,
// registered with one line in bench/reliability.ts's SECTIONS.
import type { BuildInfo } from '../database.ts';

export interface SectionContext {
  /** The project root (the folder of package.json). */
  root: string;
  /**
   * The benchmark's database server, as a URL of its postgres database (to create and drop
   * databases), for sections that need one; otherwise TEST_DATABASE_URL when set.
   */
  adminUrl?: string;
  /**
   * The 2.4-million-observation benchmark database (eggwatch_bench), built or reused by the
   * runner for sections that declare they read it. Copy it before writing to it.
   */
  benchUrl?: string;
  /** How eggwatch_bench was found or built (with benchUrl). */
  bench?: BuildInfo;
  /** Prints one progress line, prefixed with the section's name. */
  log: (line: string) => void;
  /** Environment variables of the run (read them here rather than from process.env). */
  env: Readonly<Record<string, string | undefined>>;
}

/** One table of the section's report: printed by the runner and kept in the JSON results. */
export interface ResultTable {
  title: string;
  headers: string[];
  rows: string[][];
}

export interface SectionResult {
  /** Every assertion that failed, one sentence each; empty when the section passed. Printed as FAIL lines. */
  failures: string[];
  tables: ResultTable[];
  /** Lines printed under the tables: the conditions of the run, targets, what was counted. */
  notes: string[];
  /** The measured figures, as they go into bench/results/reliability-latest.json. */
  data: Record<string, unknown>;
}
