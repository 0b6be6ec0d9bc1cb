// Code block highlighting: the public server's own Markdown test cases with highlighted code
// (from the shared fixture), language names, escaping, and markup from each covered language.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { highlightCode } from '../../server/markdown/highlight';

interface MarkdownCase {
  name: string;
  input: string;
  expected_output: string;
}

const fixture = JSON.parse(
  readFileSync(
    new URL('../../../shared/fixtures/zulip-markdown/markdown_test_cases.json', import.meta.url),
    'utf8',
  ),
) as { regular_tests: MarkdownCase[] };

// The public server's fence: ``` or ~~~ (3 or more), optional "{." and a tag; the block ends at the
// same fence. Lines lose trailing whitespace before highlighting, as on the server.
const FENCE =
  /^(`{3,}|~{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]+))?[ ]*\}?\n([^]*?)(?:\n\1[ ]*$|(?![^]))/gm;
const HIGHLIGHTED_BLOCK =
  /<div class="codehilite"(?: data-code-language="([^"]*)")?><pre><span><\/span><code>([^]*?)<\/code><\/pre><\/div>/g;

function codeBlocks(input: string): Array<{ language: string; code: string }> {
  return [...input.matchAll(FENCE)].map(([, , language = '', body]) => ({
    language,
    code: body
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n'),
  }));
}

function expectedBlocks(html: string): Array<{ language: string; html: string }> {
  return [...html.matchAll(HIGHLIGHTED_BLOCK)].map(([, language = '', inner]) => ({
    language,
    html: inner,
  }));
}

const NAMED_CASES = [
  'codeblock_hilite_python',
  'codeblock_canonicalize_lang_alias',
  'tex_fenced_tex',
  'tex_fenced_latex',
  'codeblock_hilite_shebang_feature_no_path_1',
  'codeblock_hilite_shebang_feature_no_path_2',
  'codeblock_hilite_shebang_feature_with_path',
  'codeblock_hilite_startinline_php',
];

// Every case whose expected HTML has a token span inside a code block.
const highlightedCases = fixture.regular_tests.filter((test) =>
  expectedBlocks(test.expected_output).some((block) => block.html.includes('<span class=')),
);

describe("the public server's highlighted code cases", () => {
  it('include every case named in the issue', () => {
    expect(highlightedCases.map((test) => test.name)).toEqual(expect.arrayContaining(NAMED_CASES));
  });

  it.each(highlightedCases.map((test) => [test.name, test] as const))('%s', (_name, test) => {
    const blocks = codeBlocks(test.input);
    const expected = expectedBlocks(test.expected_output);
    expect(blocks).toHaveLength(expected.length);
    blocks.forEach((block, index) => {
      expect(highlightCode(block.code, block.language)).toEqual(expected[index]);
    });
  });
});
