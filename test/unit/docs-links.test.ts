// The README and docs/ are read by people following links: every relative link (and picture) must
// point at a file of the repository, and a link to a heading (`page.md#heading`) at a heading that
// page has. CI runs "exactly the README's commands", so the README must still show them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown links and images, `[text](target)` / `![alt](target)`, outside code spans and blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/^(?: {4}|\t).*$/gm, '') // indented code blocks (examples of message text)
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces to '-'). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = text!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe('README and docs links', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/architecture.md');
    expect(linkTargets(readFileSync(join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it.each(pages)('every relative link in %s resolves', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const broken: string[] = [];
    for (const target of linkTargets(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, mailto:, …
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURI(path));
      if (!existsSync(file)) {
        broken.push(`${target} (no ${relative(root, file)})`);
        continue;
      }
      if (anchor && file.endsWith('.md')) {
        if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor))
          broken.push(`${target} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("shows the commands CI runs in the README's first code block", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const shown = block.split('\n').map((line) => line.replace(/#.*/, '').trim());
    const ci = readFileSync(join(root, '.ci/run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('npm '));
    expect(ci).toEqual(['npm ci', 'npm test']);
    for (const command of ci) expect(shown).toContain(command);
  });
});
