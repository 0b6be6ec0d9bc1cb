// Code block highlighting: the public server's own Markdown test cases with highlighted code
// (from the shared fixture), language names, escaping, and markup from each covered language.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalLanguage, highlightCode, plainCodeHtml } from '../../server/markdown/highlight';

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

// Snippets in each covered language and what Pygments 2.20 (the public server's highlighter) makes
// of them with the server's settings: [tag, code, data-code-language, inner HTML of <code>].
const PYGMENTS_OUTPUT: Array<[string, string, string, string]> = [
  [
    'python',
    'for n in names:\n    print(f"hi {n}", n is None)',
    'Python',
    '<span class="k">for</span> <span class="n">n</span> <span class="ow">in</span> <span class="n">names</span><span class="p">:</span>\n    <span class="nb">print</span><span class="p">(</span><span class="sa">f</span><span class="s2">"hi </span><span class="si">{</span><span class="n">n</span><span class="si">}</span><span class="s2">"</span><span class="p">,</span> <span class="n">n</span> <span class="ow">is</span> <span class="kc">None</span><span class="p">)</span>\n',
  ],
  [
    'javascript',
    'const f = async (x) => x?.y ?? `z${x}`;',
    'JavaScript',
    '<span class="kd">const</span><span class="w"> </span><span class="nx">f</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="k">async</span><span class="w"> </span><span class="p">(</span><span class="nx">x</span><span class="p">)</span><span class="w"> </span><span class="p">=&gt;</span><span class="w"> </span><span class="nx">x</span><span class="o">?</span><span class="p">.</span><span class="nx">y</span><span class="w"> </span><span class="o">??</span><span class="w"> </span><span class="sb">`z</span><span class="si">${</span><span class="nx">x</span><span class="si">}</span><span class="sb">`</span><span class="p">;</span>\n',
  ],
  [
    'typescript',
    'let n: number = parse(s) as number;',
    'TypeScript',
    '<span class="kd">let</span><span class="w"> </span><span class="nx">n</span><span class="o">:</span><span class="w"> </span><span class="kt">number</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="nx">parse</span><span class="p">(</span><span class="nx">s</span><span class="p">)</span><span class="w"> </span><span class="kr">as</span><span class="w"> </span><span class="kt">number</span><span class="p">;</span>\n',
  ],
  [
    'json',
    '{"a": [1, 2.5, true, null]}',
    'JSON',
    '<span class="p">{</span><span class="nt">"a"</span><span class="p">:</span><span class="w"> </span><span class="p">[</span><span class="mi">1</span><span class="p">,</span><span class="w"> </span><span class="mf">2.5</span><span class="p">,</span><span class="w"> </span><span class="kc">true</span><span class="p">,</span><span class="w"> </span><span class="kc">null</span><span class="p">]}</span>\n',
  ],
  [
    'bash',
    'export PATH="$HOME/bin:$PATH"\nls -la | grep foo && cd ..',
    'Bash',
    '<span class="nb">export</span><span class="w"> </span><span class="nv">PATH</span><span class="o">=</span><span class="s2">"</span><span class="nv">$HOME</span><span class="s2">/bin:</span><span class="nv">$PATH</span><span class="s2">"</span>\nls<span class="w"> </span>-la<span class="w"> </span><span class="p">|</span><span class="w"> </span>grep<span class="w"> </span>foo<span class="w"> </span><span class="o">&amp;&amp;</span><span class="w"> </span><span class="nb">cd</span><span class="w"> </span>..\n',
  ],
  [
    'c',
    '#include <stdio.h>\nint main(void) { return 0; }',
    'C',
    '<span class="cp">#include</span><span class="w"> </span><span class="cpf">&lt;stdio.h&gt;</span>\n<span class="kt">int</span><span class="w"> </span><span class="nf">main</span><span class="p">(</span><span class="kt">void</span><span class="p">)</span><span class="w"> </span><span class="p">{</span><span class="w"> </span><span class="k">return</span><span class="w"> </span><span class="mi">0</span><span class="p">;</span><span class="w"> </span><span class="p">}</span>\n',
  ],
  [
    'cpp',
    'std::vector<int> v{1, 2};',
    'C++',
    '<span class="n">std</span><span class="o">::</span><span class="n">vector</span><span class="o">&lt;</span><span class="kt">int</span><span class="o">&gt;</span><span class="w"> </span><span class="n">v</span><span class="p">{</span><span class="mi">1</span><span class="p">,</span><span class="w"> </span><span class="mi">2</span><span class="p">};</span>\n',
  ],
  [
    'java',
    'public class A { void f() { System.out.println("x"); } }',
    'Java',
    '<span class="kd">public</span><span class="w"> </span><span class="kd">class</span> <span class="nc">A</span><span class="w"> </span><span class="p">{</span><span class="w"> </span><span class="kt">void</span><span class="w"> </span><span class="nf">f</span><span class="p">()</span><span class="w"> </span><span class="p">{</span><span class="w"> </span><span class="n">System</span><span class="p">.</span><span class="na">out</span><span class="p">.</span><span class="na">println</span><span class="p">(</span><span class="s">"x"</span><span class="p">);</span><span class="w"> </span><span class="p">}</span><span class="w"> </span><span class="p">}</span>\n',
  ],
  [
    'go',
    'func main() {\n\tx := []int{1}\n\tfmt.Println(len(x))\n}',
    'Go',
    '<span class="kd">func</span><span class="w"> </span><span class="nx">main</span><span class="p">()</span><span class="w"> </span><span class="p">{</span>\n<span class="w">\t</span><span class="nx">x</span><span class="w"> </span><span class="o">:=</span><span class="w"> </span><span class="p">[]</span><span class="kt">int</span><span class="p">{</span><span class="mi">1</span><span class="p">}</span>\n<span class="w">\t</span><span class="nx">fmt</span><span class="p">.</span><span class="nx">Println</span><span class="p">(</span><span class="nb">len</span><span class="p">(</span><span class="nx">x</span><span class="p">))</span>\n<span class="p">}</span>\n',
  ],
  [
    'rust',
    'fn main() { let v: Vec<i32> = Vec::new(); println!("{:?}", v); }',
    'Rust',
    '<span class="k">fn</span><span class="w"> </span><span class="nf">main</span><span class="p">()</span><span class="w"> </span><span class="p">{</span><span class="w"> </span><span class="kd">let</span><span class="w"> </span><span class="n">v</span><span class="p">:</span><span class="w"> </span><span class="nb">Vec</span><span class="o">&lt;</span><span class="kt">i32</span><span class="o">&gt;</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="nb">Vec</span><span class="p">::</span><span class="n">new</span><span class="p">();</span><span class="w"> </span><span class="fm">println!</span><span class="p">(</span><span class="s">"{:?}"</span><span class="p">,</span><span class="w"> </span><span class="n">v</span><span class="p">);</span><span class="w"> </span><span class="p">}</span>\n',
  ],
  [
    'ruby',
    'def greet(name)\n  puts "hi #{name}"\nend',
    'Ruby',
    '<span class="k">def</span><span class="w"> </span><span class="nf">greet</span><span class="p">(</span><span class="nb">name</span><span class="p">)</span>\n<span class="w">  </span><span class="nb">puts</span><span class="w"> </span><span class="s2">"hi </span><span class="si">#{</span><span class="nb">name</span><span class="si">}</span><span class="s2">"</span>\n<span class="k">end</span>\n',
  ],
  [
    'php',
    '$x = array(1, 2); echo "n" . $x;',
    'PHP',
    '<span class="nv">$x</span> <span class="o">=</span> <span class="k">array</span><span class="p">(</span><span class="mi">1</span><span class="p">,</span> <span class="mi">2</span><span class="p">);</span> <span class="k">echo</span> <span class="s2">"n"</span> <span class="o">.</span> <span class="nv">$x</span><span class="p">;</span>\n',
  ],
  [
    'sql',
    "SELECT id FROM users WHERE name = 'bob';",
    'SQL',
    '<span class="k">SELECT</span><span class="w"> </span><span class="n">id</span><span class="w"> </span><span class="k">FROM</span><span class="w"> </span><span class="n">users</span><span class="w"> </span><span class="k">WHERE</span><span class="w"> </span><span class="n">name</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="s1">\'bob\'</span><span class="p">;</span>\n',
  ],
  [
    'html',
    '<a href="/x" class=b>hi &amp; bye</a>',
    'HTML',
    '<span class="p">&lt;</span><span class="nt">a</span> <span class="na">href</span><span class="o">=</span><span class="s">"/x"</span> <span class="na">class</span><span class="o">=</span><span class="s">b</span><span class="p">&gt;</span>hi <span class="ni">&amp;amp;</span> bye<span class="p">&lt;/</span><span class="nt">a</span><span class="p">&gt;</span>\n',
  ],
  [
    'xml',
    '<?xml version="1.0"?>\n<root a="1"><c/></root>',
    'XML',
    '<span class="cp">&lt;?xml version="1.0"?&gt;</span>\n<span class="nt">&lt;root</span><span class="w"> </span><span class="na">a=</span><span class="s">"1"</span><span class="nt">&gt;&lt;c/&gt;&lt;/root&gt;</span>\n',
  ],
  [
    'css',
    '.a > #b:hover { color: #fff; margin: 0 auto; }',
    'CSS',
    '<span class="p">.</span><span class="nc">a</span><span class="w"> </span><span class="o">&gt;</span><span class="w"> </span><span class="p">#</span><span class="nn">b</span><span class="p">:</span><span class="nd">hover</span><span class="w"> </span><span class="p">{</span><span class="w"> </span><span class="k">color</span><span class="p">:</span><span class="w"> </span><span class="mh">#fff</span><span class="p">;</span><span class="w"> </span><span class="k">margin</span><span class="p">:</span><span class="w"> </span><span class="mi">0</span><span class="w"> </span><span class="kc">auto</span><span class="p">;</span><span class="w"> </span><span class="p">}</span>\n',
  ],
  [
    'yaml',
    'on: [push]\njobs:\n  build:\n    - run: echo hi',
    'YAML',
    '<span class="nt">on</span><span class="p">:</span><span class="w"> </span><span class="p p-Indicator">[</span><span class="nv">push</span><span class="p p-Indicator">]</span>\n<span class="nt">jobs</span><span class="p">:</span>\n<span class="w">  </span><span class="nt">build</span><span class="p">:</span>\n<span class="w">    </span><span class="p p-Indicator">-</span><span class="w"> </span><span class="nt">run</span><span class="p">:</span><span class="w"> </span><span class="l l-Scalar l-Scalar-Plain">echo hi</span>\n',
  ],
  [
    'markdown',
    '# Title\n- *em* and `code`',
    'Markdown',
    '<span class="gh"># Title</span>\n<span class="k">-</span><span class="w"> </span><span class="ge">*em*</span> and <span class="sb">`code`</span>\n',
  ],
  [
    'diff',
    '@@ -1 +1 @@\n-old\n+new\n same',
    'Diff',
    '<span class="gu">@@ -1 +1 @@</span>\n<span class="gd">-old</span>\n<span class="gi">+new</span>\n<span class="w"> </span>same\n',
  ],
  [
    'tex',
    '$x^2 + y_1$ and \\alpha',
    'TeX',
    '<span class="s">$</span><span class="nb">x^</span><span class="m">2</span><span class="nb"> </span><span class="o">+</span><span class="nb"> y_</span><span class="m">1</span><span class="s">$</span> and <span class="k">\\alpha</span>\n',
  ],
  [
    'kotlin',
    'fun main() {\n    val x: Int = 1\n}',
    'Kotlin',
    '<span class="kd">fun</span><span class="w"> </span><span class="nf">main</span><span class="p">()</span><span class="w"> </span><span class="p">{</span>\n<span class="w">    </span><span class="kd">val</span><span class="w"> </span><span class="nv">x</span><span class="p">:</span><span class="w"> </span><span class="kt">Int</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="m">1</span>\n<span class="p">}</span>\n',
  ],
  [
    'swift',
    'func f(_ x: Int) -> String { return "v" }',
    'Swift',
    '<span class="kd">func</span><span class="w"> </span><span class="nf">f</span><span class="p">(</span><span class="kc">_</span><span class="w"> </span><span class="n">x</span><span class="p">:</span><span class="w"> </span><span class="nb">Int</span><span class="p">)</span><span class="w"> </span><span class="p">-&gt;</span><span class="w"> </span><span class="nb">String</span><span class="w"> </span><span class="p">{</span><span class="w"> </span><span class="k">return</span><span class="w"> </span><span class="s">"v"</span><span class="w"> </span><span class="p">}</span>\n',
  ],
  [
    'csharp',
    'using System;\nvar x = 1;',
    'C#',
    '<span class="k">using</span><span class="w"> </span><span class="nn">System</span><span class="p">;</span>\n<span class="kt">var</span><span class="w"> </span><span class="n">x</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="mi">1</span><span class="p">;</span>\n',
  ],
  [
    'haskell',
    'main :: IO ()\nmain = print (map (+1) [1, 2])',
    'Haskell',
    '<span class="nf">main</span><span class="w"> </span><span class="ow">::</span><span class="w"> </span><span class="kt">IO</span><span class="w"> </span><span class="nb">()</span>\n<span class="nf">main</span><span class="w"> </span><span class="ow">=</span><span class="w"> </span><span class="n">print</span><span class="w"> </span><span class="p">(</span><span class="n">map</span><span class="w"> </span><span class="p">(</span><span class="o">+</span><span class="mi">1</span><span class="p">)</span><span class="w"> </span><span class="p">[</span><span class="mi">1</span><span class="p">,</span><span class="w"> </span><span class="mi">2</span><span class="p">])</span>\n',
  ],
  [
    'console',
    '$ ls -la\ntotal 4\n$ echo "hi"  # x\nhi\nroot@host:~# id\n(venv) $ pip install x',
    'Bash Session',
    '<span class="gp">$ </span>ls<span class="w"> </span>-la\n<span class="go">total 4</span>\n<span class="gp">$ </span><span class="nb">echo</span><span class="w"> </span><span class="s2">"hi"</span><span class="w">  </span><span class="c1"># x</span>\n<span class="go">hi</span>\n<span class="gp">root@host:~# </span>id\n<span class="gp gp-VirtualEnv">(venv)</span> <span class="gp">$ </span>pip<span class="w"> </span>install<span class="w"> </span>x\n',
  ],
  [
    'pycon',
    '>>> x = 1\n>>> print(x)\n1\n... y\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nValueError: bad',
    'Python console session',
    '<span class="gp">&gt;&gt;&gt; </span><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n<span class="gp">&gt;&gt;&gt; </span><span class="nb">print</span><span class="p">(</span><span class="n">x</span><span class="p">)</span>\n<span class="go">1</span>\n<span class="go">... y</span>\n<span class="gt">Traceback (most recent call last):</span>\n  File <span class="nb">"&lt;stdin&gt;"</span>, line <span class="m">1</span>, in <span class="n">&lt;module&gt;</span>\n<span class="gr">ValueError</span>: <span class="n">bad</span>\n',
  ],
];

describe('highlighting as Pygments does', () => {
  it.each(PYGMENTS_OUTPUT)('%s', (tag, code, language, html) => {
    expect(highlightCode(code, tag)).toEqual({ language, html });
  });

  it('normalises line ends and blank lines around the code as Pygments does', () => {
    const expected = highlightCode('x = 1\ny = 2', 'python');
    expect(highlightCode('\n\r\nx = 1\r\ny = 2\r\n\n', 'python')).toEqual(expected);
    expect(expected?.html.endsWith('\n')).toBe(true);
  });

  it('writes quotes as characters in a tagged block and as entities in an untagged one', () => {
    expect(highlightCode("s = 'a'", 'python')?.html).toContain(`<span class="s1">'a'</span>`);
    expect(highlightCode("#!python\ns = 'a'", '')?.html).toContain(
      '<span class="s1">&#39;a&#39;</span>',
    );
  });

  it('leaves an untagged block without a first-line language to the caller', () => {
    expect(highlightCode('def f(): pass', '')).toBeUndefined();
    expect(plainCodeHtml('say "hi" & \'bye\' <b>', '')).toBe(
      'say &quot;hi&quot; &amp; &#39;bye&#39; &lt;b&gt;\n',
    );
  });

  it('shows "#!" with an unknown language unhighlighted, as Pygments\' text lexer does', () => {
    expect(highlightCode('#!nosuchlanguage\necho "x"', '')).toEqual({
      language: '',
      html: '#!nosuchlanguage\necho &quot;x&quot;\n',
    });
  });
});

describe('language names', () => {
  it.each([
    ['py', 'Python'],
    ['python', 'Python'],
    ['python3', 'Python'],
    ['PY', 'Python'],
    ['py2', 'Python 2.x'],
    ['js', 'JavaScript'],
    ['javascript', 'JavaScript'],
    ['ts', 'TypeScript'],
    ['json', 'JSON'],
    ['sh', 'Bash'],
    ['bash', 'Bash'],
    ['shell', 'Bash'],
    ['zsh', 'Bash'],
    ['console', 'Bash Session'],
    ['c', 'C'],
    ['c++', 'C++'],
    ['cpp', 'C++'],
    ['java', 'Java'],
    ['go', 'Go'],
    ['golang', 'Go'],
    ['rust', 'Rust'],
    ['rs', 'Rust'],
    ['rb', 'Ruby'],
    ['php', 'PHP'],
    ['html+php', 'HTML+PHP'],
    ['sql', 'SQL'],
    ['html', 'HTML'],
    ['xml', 'XML'],
    ['css', 'CSS'],
    ['yaml', 'YAML'],
    ['md', 'Markdown'],
    ['diff', 'Diff'],
    ['tex', 'TeX'],
    ['latex', 'TeX'],
    ['kotlin', 'Kotlin'],
    ['swift', 'Swift'],
    ['c#', 'C#'],
    ['csharp', 'C#'],
    ['haskell', 'Haskell'],
    ['hs', 'Haskell'],
    ['text', 'Text only'],
    ['fortran', 'Fortran'],
  ])('%s is %s', (alias, name) => {
    expect(canonicalLanguage(alias)).toBe(name);
  });

  it('has no name for a tag no lexer answers to', () => {
    expect(canonicalLanguage('inventedlanguage')).toBeUndefined();
    expect(canonicalLanguage('yml')).toBeUndefined();
    expect(canonicalLanguage('constructor')).toBeUndefined();
    expect(highlightCode('x', 'inventedlanguage')).toBeUndefined();
  });

  it('names and escapes a known language it does not highlight', () => {
    expect(highlightCode('PRINT *, "a" < b', 'fortran')).toEqual({
      language: 'Fortran',
      html: 'PRINT *, "a" &lt; b\n',
    });
    expect(highlightCode("if x < 'y'", 'text')).toEqual({
      language: 'Text only',
      html: "if x &lt; 'y'\n",
    });
  });
});

// Markup must be only escaped text and class spans, whatever the code, and must say the code.
const SPANS = /<span class="[a-z0-9 -]+">|<\/span>/gi;
const unescape = (html: string) =>
  html
    .replace(SPANS, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

function expectSafeMarkup(code: string, tag: string): void {
  const result = highlightCode(code, tag);
  expect(result).toBeDefined();
  const html = result?.html ?? '';
  expect(html.replace(SPANS, '')).not.toMatch(/[<>]/);
  expect(unescape(html)).toBe(`${code.replace(/\r\n?/g, '\n').replace(/^\n+|\n+$/g, '')}\n`);
}

describe('markup', () => {
  const tags = PYGMENTS_OUTPUT.map(([tag]) => tag);

  it('escapes code that looks like markup', () => {
    for (const tag of tags) {
      expectSafeMarkup(
        '</code></pre><script>alert("x")</script><img src=x onerror=y> &amp; \'q\'',
        tag,
      );
    }
  });

  it('keeps every character of arbitrary code, as text or inside class spans', () => {
    const code = fc.string({ unit: fc.constantFrom(...'ab1 .:;\'"`$#@%&<>()[]{}\\/*-+=!?\n\t') });
    fc.assert(
      fc.property(fc.constantFrom(...tags), code, (tag, text) => {
        expectSafeMarkup(text, tag);
      }),
      { numRuns: 400 },
    );
  });
});
