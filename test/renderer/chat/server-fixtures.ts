// Files the jsdom tests read from disk: the public server's fixtures (../shared/fixtures, beside the
// repository) and files of installed packages. jsdom tests have no Node types and Vite refuses
// imports outside the repository, so Node's own fs reads them (vitest runs the tests in Node, from
// the repository's root).
const fs = (
  globalThis as unknown as {
    process: {
      getBuiltinModule(id: 'node:fs'): { readFileSync(path: string, enc: 'utf8'): string };
    };
  }
).process.getBuiltinModule('node:fs');

/** A file by its path from the repository's root. */
export const readRepoFile = (path: string): string => fs.readFileSync(path, 'utf8');

/** A JSON fixture of the public server, by its path under ../shared/fixtures. */
export const serverFixture = <T>(path: string): T =>
  JSON.parse(readRepoFile(`../shared/fixtures/${path}`)) as T;

export interface MarkdownCase {
  name: string;
  expected_output?: string;
}

/** The public server's Markdown test cases that have an expected rendering. */
export const markdownCases = (): MarkdownCase[] =>
  serverFixture<{ regular_tests: MarkdownCase[] }>(
    'zulip-markdown/markdown_test_cases.json',
  ).regular_tests.filter((c) => c.expected_output);

/** The public server's rendering of one Markdown test case. */
export const serverHtml = (name: string): string =>
  markdownCases().find((c) => c.name === name)!.expected_output!;
