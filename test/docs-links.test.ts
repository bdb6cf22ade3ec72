// Every relative link in the repository's Markdown documents leads somewhere: README's map of
// features to documents, and the documents' links to each other, to decision records and to
// code, break silently when a file moves. A link to a heading (`file.md#heading`, `#heading`)
// must name a heading of that document, by the slug GitHub gives it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Folders that hold no document of the project: dependencies, builds, local data, test output. */
const SKIPPED = new Set(['node_modules', '.git', '.data', 'dist', 'test-results', 'playwright-report']);

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The text outside fenced code blocks. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside fenced code blocks and inline code spans, where a link is a link. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** The targets of inline links and images, `[text](target)`, and of reference definitions. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

/** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** What is wrong with one link of `file`, or null when it resolves. */
export function brokenLink(file: string, target: string, root = ROOT): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null; // http:, mailto:...
  const [pathPart = '', anchor] = target.split('#', 2);
  const decoded = decodeURIComponent(pathPart.split('?')[0]!);
  const resolved = decoded === '' ? file : path.join(decoded.startsWith('/') ? root : path.dirname(file), decoded);
  if (!fs.existsSync(resolved)) return `${target}: no such file (${path.relative(root, resolved)})`;
  if (anchor && resolved.endsWith('.md') && !headingSlugs(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
    return `${target}: no heading #${anchor} in ${path.relative(root, resolved)}`;
  }
  return null;
}

describe('links in the Markdown documents', () => {
  it('reads inline links, images and reference definitions, not code', () => {
    const markdown = [
      'See [the map](docs/a.md#top), ![logo](public/x.svg) and [site](https://example.com).',
      '`[not](a-link.md)`',
      '```sh',
      '[not](either.md)',
      '```',
      '[ref]: ../bench/README.md',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual([
      'docs/a.md#top',
      'public/x.svg',
      'https://example.com',
      '../bench/README.md',
    ]);
  });

  it('gives headings the anchors GitHub gives them', () => {
    const slugs = headingSlugs('# Near you, the map: by state\n## `npm run bench`\n## Scaling\n## Scaling\n');
    expect([...slugs]).toEqual(['near-you-the-map-by-state', 'npm-run-bench', 'scaling', 'scaling-1']);
  });

  it('reports a missing file and a missing heading', () => {
    const readme = path.join(ROOT, 'README.md');
    expect(brokenLink(readme, 'docs/no-such-document.md')).toMatch(/no such file/);
    expect(brokenLink(readme, 'README.md#no-such-heading')).toMatch(/no heading #no-such-heading/);
    expect(brokenLink(readme, 'https://example.com/missing')).toBeNull();
  });

  it('every relative link of every document resolves', () => {
    const files = markdownFiles(ROOT);
    expect(files.map((file) => path.relative(ROOT, file))).toContain('README.md');
    const broken = files.flatMap((file) =>
      linkTargets(fs.readFileSync(file, 'utf8')).flatMap((target) => {
        const problem = brokenLink(file, target);
        return problem ? [`${path.relative(ROOT, file)}: ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });
});
