import { C_OPERATORS, C_PUNCTUATION, LEX, NAME, NO_MATCH, type Profile } from './profile';
import { isBlank, type Token } from './tokens';

// Each profile restates, over a highlight.js grammar, the choices of the Pygments lexer the public
// server uses for that language: which whitespace is a Whitespace token, how plain names,
// operators and punctuation are classed, and the words its keyword tables class differently.

const words = (cls: string, list: string): Record<string, string> =>
  Object.fromEntries(list.split(' ').map((word) => [word, cls]));

/** Pygments' Python lexer emits a docstring's indentation as Whitespace and the string as "sd". */
function pythonDocstrings(tokens: Token[]): void {
  tokens.forEach((token, index) => {
    if (!/^[rRuUbB]{0,2}("""|''')/.test(token.text) || !token.cls.startsWith('s')) return;
    const before = tokens[index - 1];
    const lineStart = index === 0 || before.text.endsWith('\n');
    const indented =
      before && isBlank(before) && (index === 1 || tokens[index - 2].text.endsWith('\n'));
    if (!lineStart && !indented) return;
    if (indented) before.cls = 'w';
    token.cls = 'sd';
  });
}

/** String prefixes (f"…", b'…') are their own "sa" token in Pygments. */
function stringAffixes(tokens: Token[]): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const affix = /^[a-zA-Z]{1,2}(?=["'])/.exec(token.text);
    if (!affix || !/^s[12bd]?$/.test(token.cls)) continue;
    tokens.splice(
      index,
      1,
      { text: affix[0], cls: 'sa' },
      { text: token.text.slice(affix[0].length), cls: token.cls },
    );
  }
}

const PYTHON: Profile = {
  grammar: 'python',
  whitespace: '',
  name: 'n',
  operators: String.raw`!=|==|<<|>>|:=|->|\*\*|//|[-~+/*%=<>&^|.@]`,
  punctuation: String.raw`[\]{}:(),;[]`,
  numbers: 'pygments',
  hashbang: true,
  scopes: { meta: 'nd', type: NAME, 'variable.language': 'bp' },
  words: {
    ...words('kn', 'import from'),
    ...words('ow', 'in is and or not'),
    ...words('kc', 'True False None'),
    ...words('bp', 'self cls Ellipsis NotImplemented'),
  },
  whitespaceAfter: ['def', 'class', 'import', 'from'],
  nameAfter: { import: 'nn', from: 'nn' },
  refine(tokens) {
    stringAffixes(tokens);
    pythonDocstrings(tokens);
    // After "from x", "import" names what is imported, not a module.
    tokens.forEach((token, index) => {
      if (token.text !== 'import' || token.cls !== 'kn') return;
      for (let back = index - 1; back >= 0 && !tokens[back].text.includes('\n'); back--) {
        if (tokens[back].text === 'from') {
          // The lexer takes the space before this "import" as Whitespace, the space after as Text.
          if (isBlank(tokens[index - 1])) tokens[index - 1].cls = 'w';
          for (let at = index + 1; at < tokens.length && !tokens[at].text.includes('\n'); at++) {
            if (tokens[at].cls === 'nn') tokens[at].cls = 'n';
            else if (tokens[at].cls === 'w') tokens[at].cls = '';
          }
          return;
        }
      }
    });
  },
};

const JS_WORDS = {
  ...words('kd', 'var let const function class with'),
  ...words(
    'k',
    'this super import export from of static async await yield extends new typeof instanceof delete in void',
  ),
  ...words(
    'kr',
    'constructor get set type abstract enum implements package private protected public interface declare readonly namespace module',
  ),
  ...words('kc', 'true false null undefined NaN Infinity'),
  ...words(
    'nb',
    'Array Boolean Date BigInt Function Math Number Object RegExp String Promise Proxy Symbol Error JSON Map Set WeakMap WeakSet Reflect isFinite isNaN parseFloat parseInt document window globalThis',
  ),
};

const JAVASCRIPT: Profile = {
  grammar: 'javascript',
  whitespace: 'w',
  name: 'nx',
  identifier: String.raw`[\p{L}_$][\p{L}\p{N}_$]*`,
  operators: String.raw`\+\+|--|~|\?\?=?|\?|:|(?:<<|>>>?|==?|!=?|\*\*|\|\||&&|[-<>+*%&|^/])=?`,
  punctuation: String.raw`=>|\.\.\.|[{(\[;,})\].]`,
  numbers: 'mf',
  hashbang: true,
  scopes: {
    'title.function': NAME,
    'title.class': NAME,
    built_in: NAME,
    attr: NAME,
    'variable.language': 'k',
  },
  words: JS_WORDS,
};

const TYPESCRIPT: Profile = {
  ...JAVASCRIPT,
  grammar: 'typescript',
  words: {
    ...JS_WORDS,
    ...words('kd', 'interface'),
    ...words('kt', 'number string boolean any void never unknown symbol object bigint'),
  },
};

const JSON_PROFILE: Profile = {
  grammar: 'json',
  whitespace: 'w',
  name: 'n',
  operators: NO_MATCH,
  punctuation: String.raw`[{}\[\]:,]`,
  numbers: 'pygments',
  scopes: { attr: 'nt', 'literal keyword': 'kc' },
};

const BASH: Profile = {
  grammar: 'bash',
  whitespace: 'w',
  name: '',
  identifier: String.raw`[\w./*-]+`,
  operators: String.raw`&&|\|\||\[\[|\]\]|[=\[\]]`,
  punctuation: String.raw`[;|&(){}]`,
  numbers: 'm',
  hashbang: true,
  scopes: { meta: 'ch', built_in: LEX },
  words: words(
    'nb',
    'alias bg bind break builtin caller cd command compgen complete declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout popd printf pushd pwd read readonly set shift shopt source suspend test time times trap true type typeset ulimit umask unalias unset wait',
  ),
  refine(tokens) {
    // NAME=value: Pygments classes the name as a variable.
    tokens.forEach((token, index) => {
      if (token.cls === '' && /^\w+$/.test(token.text) && tokens[index + 1]?.text === '=')
        token.cls = 'nv';
    });
    // A bare number counts only as a whole word.
    tokens.forEach((token) => {
      if (token.cls === 'm' && !/^\d+$/.test(token.text)) token.cls = '';
    });
  },
};

const C_FAMILY = {
  whitespace: 'w',
  name: 'n',
  operators: C_OPERATORS,
  punctuation: C_PUNCTUATION,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { built_in: NAME, 'title.class': 'nc', keyword: 'k' },
} as const;

const C: Profile = { ...C_FAMILY, grammar: 'c' };
const CPP: Profile = { ...C_FAMILY, grammar: 'cpp' };
const OBJECTIVE_C: Profile = { ...C_FAMILY, grammar: 'objectivec' };

const JAVA: Profile = {
  grammar: 'java',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[~^*!%&\[\]<>|+=/?-]`,
  punctuation: String.raw`[{}();:.,]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { meta: 'nd' },
  words: {
    ...words(
      'kd',
      'public private protected static final abstract class interface enum extends implements native synchronized transient volatile record',
    ),
    ...words('kn', 'package import'),
    ...words('kc', 'true false null'),
  },
  nameAfter: { package: 'nn', import: 'nn' },
  memberAfterDot: 'na',
};

const GO: Profile = {
  grammar: 'go',
  whitespace: 'w',
  name: 'nx',
  operators: String.raw`<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&~|]`,
  punctuation: String.raw`[|^<>=!()\[\]{}.,;:~]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { title: NAME, 'title.function': NAME },
  words: {
    ...words('kn', 'package import'),
    ...words('kd', 'func var const type struct interface'),
    ...words('kc', 'true false nil iota'),
  },
  refine(tokens) {
    tokens.forEach((token) => {
      if (token.cls === 'sb' || (token.cls === 's' && token.text.startsWith('`'))) token.cls = 's';
    });
  },
};

const RUST: Profile = {
  grammar: 'rust',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[-!$%&*+/<=>?@\\^|~]`,
  punctuation: String.raw`::|[{}()\[\],.;:]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { built_in: 'fm', 'title.function.invoke': NAME },
  words: {
    ...words('kd', 'let'),
    ...words('nb', 'Vec Option Some None Result Ok Err Box String'),
    ...words('kt', 'u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 bool char str'),
  },
};

const RUBY: Profile = {
  grammar: 'ruby',
  whitespace: 'w',
  name: 'n',
  identifier: String.raw`[\p{L}_][\p{L}\p{N}_]*[?!]?`,
  operators: String.raw`\*\*|<=>|==|!=|<=|>=|&&|\|\||<<|>>|[-+*/%=<>!&|^~.]`,
  punctuation: String.raw`[{}()\[\];,]`,
  numbers: 'pygments',
  scopes: {
    variable: 'vi',
    'title.class.inherited': 'no',
    'variable.language': 'nb',
    literal: 'kc',
  },
  words: words(
    'nb',
    'puts print require require_relative raise attr_accessor attr_reader attr_writer include extend p',
  ),
};

const PHP: Profile = {
  grammar: 'php',
  whitespace: '',
  name: 'nx',
  operators: String.raw`[~!%^&*+=|:.<>/@?-]+`,
  punctuation: String.raw`[\[\]{}();,]+`,
  numbers: 'pygments',
  // With startinline, Pygments lexes "<?php" as the operator "<?" and the name "php".
  scopes: {
    meta: LEX,
    'title.function': 'nf',
    title: 'nf',
    'title.class': 'nc',
    'variable.language': 'nv',
  },
  words: words('k', 'array echo print'),
};

const SQL: Profile = {
  grammar: 'sql',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[+*/<>=~!@#%^&|\x60?-]`,
  punctuation: String.raw`[;:()\[\],.]`,
  numbers: 'pygments',
  scopes: { type: 'nb', built_in: 'k', literal: 'k' },
};

const HTML: Profile = {
  grammar: 'xml',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  doubleQuoted: 's',
  singleQuoted: 's',
  scopes: {
    tag: 'p',
    'tag name': 'nt',
    'tag attr': 'na',
    'tag string': 's',
    symbol: 'ni',
    meta: 'cp',
    'meta keyword': 'cp',
    'meta string': 'cp',
  },
  refine(tokens) {
    // Inside a tag "=" is an operator and the spaces are plain text.
    tokens.forEach((token) => {
      if (token.cls !== 'p') return;
      if (token.text === '=') token.cls = 'o';
      else if (isBlank(token)) token.cls = '';
    });
  },
};

const XML: Profile = {
  ...HTML,
  scopes: {
    tag: 'nt',
    'tag name': 'nt',
    'tag attr': 'na',
    'tag string': 's',
    symbol: 'ni',
    meta: 'cp',
    'meta keyword': 'cp',
    'meta string': 'cp',
  },
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls !== 'nt') return;
      if (token.text === '=' && tokens[index - 1]?.cls === 'na') token.cls = 'na';
      else if (isBlank(token)) token.cls = 'w';
    });
  },
};

/** CSS sigils (".a", "#b", ":hover", "@media") are punctuation before the classed name. */
function cssSigils(tokens: Token[]): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const sigil = /^[.#:@]+(?=[\w-])/.exec(token.text);
    if (sigil && /^(nc|nn|nd|k)$/.test(token.cls)) {
      tokens.splice(
        index,
        1,
        { text: sigil[0], cls: 'p' },
        { text: token.text.slice(sigil[0].length), cls: token.cls },
      );
      index++;
    }
    const unit = /^(-?[\d.]+)([a-z%]+)$/.exec(token.text);
    if (unit && token.cls.startsWith('m')) {
      tokens.splice(
        index,
        1,
        { text: unit[1], cls: unit[1].includes('.') ? 'mf' : 'mi' },
        { text: unit[2], cls: 'kt' },
      );
      index++;
    }
  }
}

const CSS: Profile = {
  grammar: 'css',
  whitespace: 'w',
  name: 'n',
  identifier: String.raw`[\p{L}_-][\p{L}\p{N}_-]*`,
  operators: String.raw`[>+~=\[\]*]`,
  punctuation: String.raw`[{};:(),.]`,
  numbers: 'pygments',
  scopes: { attribute: 'k', keyword: 'k', meta: 'cp', 'selector-attr': LEX },
  words: words(
    'kc',
    'auto none inherit initial unset bold normal solid block inline flex grid absolute relative fixed hidden',
  ),
  refine: cssSigils,
};

const YAML_SCALAR = 'l l-Scalar l-Scalar-Plain';
const YAML: Profile = {
  grammar: 'yaml',
  whitespace: 'w',
  name: 'nv',
  operators: NO_MATCH,
  punctuation: String.raw`[\[\]{},]`,
  numbers: '',
  scopes: {
    attr: 'nt',
    bullet: 'p p-Indicator',
    string: YAML_SCALAR,
    number: YAML_SCALAR,
    literal: YAML_SCALAR,
    meta: 'cp',
    type: 'nt',
  },
  refine(tokens) {
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index];
      if (token.cls === 'nt' && token.text.endsWith(':')) {
        tokens.splice(
          index,
          1,
          { text: token.text.slice(0, -1), cls: 'nt' },
          { text: ':', cls: 'p' },
        );
        index++;
      } else if (token.cls === 'p' && /^[[\]{}]$/.test(token.text)) {
        token.cls = 'p p-Indicator';
      } else if (
        token.cls === YAML_SCALAR &&
        tokens[index - 1]?.cls === 'p p-Indicator' &&
        token.text !== '-'
      ) {
        token.cls = 'nv';
      }
    }
    // A plain scalar runs to the end of the line, spaces and quotes included.
    for (let index = 0; index < tokens.length - 2; index++) {
      if (
        tokens[index].cls === YAML_SCALAR &&
        tokens[index + 1].cls === 'w' &&
        tokens[index + 2].cls === YAML_SCALAR
      ) {
        tokens[index + 1].cls = YAML_SCALAR;
      }
    }
  },
};

const MARKDOWN: Profile = {
  grammar: 'markdown',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  scopes: { string: 'nt', link: 'na', code: 'sb', section: 'gh' },
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls === 'gh' && /^##/.test(token.text)) token.cls = 'gu';
      if (token.cls === 'k' && isBlank(tokens[index + 1] ?? { text: '', cls: '' })) {
        const next = tokens[index + 1];
        const [, space] = /^([^\S\n]*)/.exec(next.text) as RegExpExecArray;
        if (space === next.text) next.cls = 'w';
      }
    });
  },
};

const DIFF: Profile = {
  grammar: 'diff',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  scopes: { meta: 'gu', comment: 'gh' },
  refine(tokens) {
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index];
      if (token.cls === 'gh' && token.text.startsWith('---')) token.cls = 'gd';
      else if (token.cls === 'gh' && token.text.startsWith('+++')) token.cls = 'gi';
      const lineStart = index === 0 || tokens[index - 1].text.endsWith('\n');
      // A context line's leading space is Whitespace.
      if (token.cls === '' && lineStart && token.text.startsWith(' ')) {
        tokens.splice(index, 1, { text: ' ', cls: 'w' }, { text: token.text.slice(1), cls: '' });
        index++;
      }
    }
    // Plain text broken into words by the lexer is one run; the lexer emits lines as wholes.
  },
};

const TEX: Profile = {
  grammar: 'latex',
  whitespace: '',
  name: '',
  identifier: String.raw`[^\s{}\\$%&_^]+`,
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  scopes: { comment: 'c', built_in: 'nb' },
  refine(tokens) {
    tokens.forEach((token) => {
      if (token.cls === '' && (token.text === '{' || token.text === '}')) token.cls = 'nb';
      if (token.cls === 'nb' && token.text === '$') token.cls = 's';
    });
  },
};

const KOTLIN: Profile = {
  grammar: 'kotlin',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[~!%^&*+=|?<>/-]`,
  punctuation: String.raw`::|[{}()\[\];,.:]`,
  numbers: 'm',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { title: 'nf', built_in: 'kt', type: NAME },
  words: {
    ...words('kd', 'fun val var class object interface'),
    ...words('kt', 'String Int Long Double Float Boolean Char Byte Short Unit Any'),
  },
};

const SWIFT: Profile = {
  grammar: 'swift',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[-/=+*%<>!&|^~?]+`,
  punctuation: String.raw`[{}()\[\],.:;]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  scopes: { type: 'nb', operator: 'o' },
  words: {
    ...words('kd', 'import func let var class struct enum protocol extension init'),
    _: 'kc',
  },
  nameAfter: { import: 'nc' },
  refine(tokens) {
    tokens.forEach((token) => {
      if (token.text === '->' || token.text === '=') token.cls = 'p';
    });
  },
};

const CSHARP: Profile = {
  grammar: 'csharp',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[~!%^&*+=|?:<>/-]`,
  punctuation: String.raw`[()\[\];,.{}]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { built_in: 'kt', title: 'nf' },
  words: {
    ...words(
      'kt',
      'bool byte char decimal double dynamic float int long object sbyte short string uint ulong ushort var',
    ),
    args: 'n',
  },
  nameAfter: {
    namespace: 'nn',
    using: 'nn',
    class: 'nc',
    struct: 'nc',
    interface: 'nc',
    enum: 'nc',
    record: 'nc',
  },
};

const HASKELL: Profile = {
  grammar: 'haskell',
  whitespace: 'w',
  name: 'n',
  identifier: String.raw`[\p{L}_][\p{L}\p{N}_']*`,
  operators: String.raw`[-!#$%&*+./<=>?@\\^|~:]+`,
  punctuation: String.raw`[(),;\[\]\x60{}]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { keyword: 'kr', title: 'nf' },
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls === 'o' && /^(::|=|\\|\||<-|->|=>|@|~)$/.test(token.text)) token.cls = 'ow';
      if (token.text === '(' && tokens[index + 1]?.text === ')') {
        token.cls = 'nb';
        tokens[index + 1].cls = 'nb';
      }
    });
  },
};

// Languages whose Pygments lexer is not restated above get highlight.js's classes through the
// default scope table, with C-like treatment of the rest.
const generic = (grammar: string, overrides: Partial<Profile> = {}): Profile => ({
  grammar,
  whitespace: 'w',
  name: 'n',
  operators: C_OPERATORS,
  punctuation: C_PUNCTUATION,
  numbers: 'pygments',
  hashbang: true,
  ...overrides,
});

/** Profiles by the public server's language name (the Pygments lexer name). */
export const PROFILES: ReadonlyMap<string, Profile> = new Map<string, Profile>([
  ['Python', PYTHON],
  ['Python 2.x', PYTHON],
  ['Python console session', PYTHON],
  ['JavaScript', JAVASCRIPT],
  ['JSX', JAVASCRIPT],
  ['TypeScript', TYPESCRIPT],
  ['TSX', TYPESCRIPT],
  ['JSON', JSON_PROFILE],
  ['JSON5', JSON_PROFILE],
  ['JSONLD', JSON_PROFILE],
  ['Bash', BASH],
  ['Bash Session', BASH],
  ['C', C],
  ['C++', CPP],
  ['CUDA', CPP],
  ['Arduino', CPP],
  ['Objective-C', OBJECTIVE_C],
  ['Java', JAVA],
  ['Go', GO],
  ['Rust', RUST],
  ['Ruby', RUBY],
  ['PHP', PHP],
  ['CSS+PHP', PHP],
  ['HTML+PHP', PHP],
  ['JavaScript+PHP', PHP],
  ['XML+PHP', PHP],
  ['SQL', SQL],
  ['MySQL', SQL],
  ['PostgreSQL SQL dialect', SQL],
  ['Transact-SQL', SQL],
  ['SQLite3con', SQL],
  ['HTML', HTML],
  ['XML', XML],
  ['CSS', CSS],
  ['SCSS', { ...CSS, grammar: 'scss' }],
  ['LessCss', { ...CSS, grammar: 'less' }],
  ['YAML', YAML],
  ['Markdown', MARKDOWN],
  ['Diff', DIFF],
  ['TeX', TEX],
  ['Kotlin', KOTLIN],
  ['Swift', SWIFT],
  ['C#', CSHARP],
  ['Haskell', HASKELL],
  ['Perl', generic('perl', { scopes: { variable: 'nv' } })],
  ['Lua', generic('lua')],
  ['S', generic('r')],
  ['Scala', generic('scala')],
  ['Groovy', generic('groovy')],
  ['Dart', generic('dart')],
  ['Elixir', generic('elixir')],
  ['Erlang', generic('erlang')],
  ['Clojure', generic('clojure')],
  ['Scheme', generic('scheme')],
  ['Common Lisp', generic('lisp')],
  ['EmacsLisp', generic('lisp')],
  ['Julia', generic('julia')],
  ['OCaml', generic('ocaml')],
  ['F#', generic('fsharp')],
  ['Elm', generic('elm')],
  ['CoffeeScript', generic('coffeescript', { name: 'nx' })],
  ['VB.net', generic('vbnet')],
  ['Matlab', generic('matlab')],
  ['PowerShell', generic('powershell')],
  ['Makefile', generic('makefile')],
  ['Docker', generic('dockerfile')],
  ['CMake', generic('cmake')],
  ['INI', generic('ini')],
  ['TOML', generic('ini')],
  ['Properties', generic('ini')],
  ['Nginx configuration file', generic('nginx')],
  ['HTTP', generic('http')],
  ['GraphQL', generic('graphql')],
  ['Protocol Buffer', generic('protobuf')],
  ['NASM', generic('x86asm')],
  ['GAS', generic('x86asm')],
  ['Text only', { ...MARKDOWN, grammar: '' }],
]);
