// Comments, test names and identifiers cite only what a clone of the repository holds. The
// product specification, its design and style notes, the retailer notes and the issue tracker
// live outside it, so "SPEC §5", "DESIGN.md", "retailers.md §7" or "issue 26" mean nothing to the
// next engineer: code points at docs/ (a feature document, docs/architecture.md,
// docs/operations.md, a decision record, bench/README.md) or states the rule itself. The
// documents in docs/ and README.md may name the specification, but not its sections or issues.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));

/** Folders of code and tests, and the extensions of the files in them that are read. */
const CODE_DIRS = ['src', 'worker', 'test', 'e2e', 'bench', 'scripts'];
const DOC_DIRS = ['docs'];
const EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|sql|sh|md|html|css)$/;
/** Captured answers of the real retailer sites: their text is theirs, not the project's. */
const FOREIGN_TEXT = ['test/retailers/real/'];
const SKIPPED = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', '.data']);
/** Files whose examples name documents that do not exist on purpose (the link checker's own tests). */
const MARKDOWN_EXAMPLES = new Set(['test/docs-links.test.ts']);

/** A section sign, or an issue cited by number or item. */
const SECTION_OR_ISSUE = /§|\b[Ii]ssues?\s+(#?\d+|items?\b)|\bPR\s*#\d+/;
/** In code: also the specification's and its companions' names. */
const CODE_CITATION = /\bSPEC\b|\bDESIGN\b|\bSTYLE\b/;
const MARKDOWN_NAME = /\b([\w.-]+\.md)\b/g;

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : files(full);
    return EXTENSIONS.test(entry.name) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const rootFiles = fs
  .readdirSync(ROOT)
  .filter((name) => /\.(ts|js|mjs|cjs)$/.test(name))
  .map((name) => path.join(ROOT, name));

/** The Markdown documents the repository holds, by file name. */
function markdownNames(): Set<string> {
  const names = new Set(['README.md']);
  for (const dir of [...CODE_DIRS, ...DOC_DIRS]) {
    for (const file of files(path.join(ROOT, dir))) if (file.endsWith('.md')) names.add(path.basename(file));
  }
  return names;
}

/**
 * The citations in one file's text, as 'file:line: text'. In code every rule applies; in a
 * document only sections and issues (a document may say "the specification").
 */
export function citations(file: string, text: string, kind: 'code' | 'doc', known: Set<string>): string[] {
  const found: string[] = [];
  const namesDocuments = kind === 'code' && !MARKDOWN_EXAMPLES.has(file);
  text.split('\n').forEach((line, index) => {
    const unknownDocument =
      namesDocuments && [...line.matchAll(MARKDOWN_NAME)].some((match) => !known.has(path.basename(match[1]!)));
    if (SECTION_OR_ISSUE.test(line) || (kind === 'code' && CODE_CITATION.test(line)) || unknownDocument) {
      found.push(`${file}:${index + 1}: ${line.trim()}`);
    }
  });
  return found;
}

function scan(): string[] {
  const known = markdownNames();
  const code = [...CODE_DIRS.flatMap((dir) => files(path.join(ROOT, dir))), ...rootFiles];
  const docs = [...DOC_DIRS.flatMap((dir) => files(path.join(ROOT, dir))), path.join(ROOT, 'README.md')];
  const read = (file: string, kind: 'code' | 'doc') => {
    const name = relative(file);
    if (name === SELF || FOREIGN_TEXT.some((prefix) => name.startsWith(prefix))) return [];
    return citations(name, fs.readFileSync(file, 'utf8'), kind, known);
  };
  return [...code.flatMap((file) => read(file, 'code')), ...docs.flatMap((file) => read(file, 'doc'))];
}

describe('references to documents outside the repository', () => {
  it('recognises each kind of citation, and leaves names that merely contain the words alone', () => {
    const known = new Set(['README.md', 'scraping.md']);
    const code = [
      '// A missing count means 12 (SPEC §5).',
      "it('matches SPEC defaults', () => {});",
      '// ZIP to region (DESIGN: via its state).',
      '// An unexpected console.error is a failure (STYLE.md).',
      '// precedence from retailers.md section 7',
      '// What a store charges (issue 26).',
      '// Accessibility (issue item 6).',
      '// Fixed in PR #31.',
    ].join('\n');
    expect(citations('x.ts', code, 'code', known)).toHaveLength(8);
    const clean = [
      'const TREND_STYLE = {};',
      "export const BENCH_SPEC = { brand: 'SPECIALLY SELECTED' };",
      'const US_MAP_ASPECT = 1.6;',
      '// The precedence is in docs/features/scraping.md, and README.md says how to run it.',
      "// 'Reference #18.' is the Akamai wall's text.",
    ].join('\n');
    expect(citations('x.ts', clean, 'code', known)).toEqual([]);
    expect(citations('a.md', 'The specification names the figures.\nSee DESIGN.md.', 'doc', known)).toEqual([]);
    expect(citations('a.md', 'As SPEC §7 says.\nIssue 26 asks for it.', 'doc', known)).toEqual([
      'a.md:1: As SPEC §7 says.',
      'a.md:2: Issue 26 asks for it.',
    ]);
  });

  it('finds none in the code, the tests, the benchmarks, the scripts or the documents', () => {
    expect(scan()).toEqual([]);
  });
});
