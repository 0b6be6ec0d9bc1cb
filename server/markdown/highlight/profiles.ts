import { C_OPERATORS, C_PUNCTUATION, LEX, NAME, NO_MATCH, SUBST, type Profile } from './profile';
import { lexTex } from './tex-lexer';
import { isBlank, type Token } from './tokens';

// Each profile restates, over a highlight.js grammar, the choices of the Pygments lexer the public
// server uses for that language: which whitespace is a Whitespace token, how plain names,
// operators and punctuation are classed, and the words its keyword tables class differently.

/** No highlighting: the code is one run of plain text. */
const PLAIN: Profile = {
  grammar: '',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
};

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
  stringEscapes: true,
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
    ...words(
      'vm',
      '__name__ __file__ __doc__ __dict__ __class__ __module__ __all__ __slots__ __package__ __spec__',
    ),
    ...words(
      'ne',
      'BaseException Exception ArithmeticError AssertionError AttributeError BufferError EOFError ImportError ModuleNotFoundError IndexError KeyError KeyboardInterrupt LookupError MemoryError NameError NotImplementedError OSError OverflowError RecursionError ReferenceError RuntimeError StopIteration StopAsyncIteration SyntaxError IndentationError SystemError SystemExit TypeError UnboundLocalError UnicodeError UnicodeDecodeError UnicodeEncodeError ValueError ZeroDivisionError FileNotFoundError FileExistsError PermissionError TimeoutError ConnectionError BrokenPipeError IsADirectoryError NotADirectoryError InterruptedError ChildProcessError ProcessLookupError Warning UserWarning DeprecationWarning RuntimeWarning FutureWarning',
    ),
  },
  whitespaceAfter: { def: 'w', class: 'w', import: 'w', from: 'w' },
  nameAfter: { import: 'nn', from: 'nn' },
  refine(tokens) {
    for (const token of tokens) {
      // highlight.js takes a console prompt (">>>") for a decorator.
      if (token.cls === 'nd' && !token.text.startsWith('@')) token.cls = 'o';
      else if (token.cls === 'n' && /^__\w+__$/.test(token.text)) token.cls = 'fm';
    }
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
  ...words('k', 'this super import export from of static async await yield extends'),
  ...words('ow', 'new typeof instanceof delete in void'),
  ...words(
    'kr',
    'constructor type abstract enum implements package private protected public interface declare readonly namespace module',
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
  operators: String.raw`\+\+|--|~|\?\?=?|\?|:|(?:<<|>>>?|==?(?!>)|!=?|\*\*|\|\||&&|[-<>+*%&|^/])=?`,
  punctuation: String.raw`=>|\.\.\.|[{(\[;,})\].]`,
  numbers: 'mf',
  hashbang: true,
  scopes: {
    'title.function': NAME,
    'title.class': NAME,
    built_in: NAME,
    attr: NAME,
    'variable.language': NAME,
  },
  words: JS_WORDS,
};

const TYPESCRIPT: Profile = {
  ...JAVASCRIPT,
  grammar: 'typescript',
  words: {
    ...JS_WORDS,
    ...words('kd', 'interface enum'),
    ...words('k', 'implements private protected public readonly static abstract declare'),
    ...words('kt', 'number string boolean any void never unknown symbol object bigint'),
  },
  refine(tokens) {
    // A name in a type annotation ("x: User") is a type to Pygments.
    tokens.forEach((token, index) => {
      if (token.cls !== 'nx') return;
      const before = tokens[index - 1]?.cls === 'w' ? tokens[index - 2] : tokens[index - 1];
      if (before?.text === ':' && before.cls === 'o') token.cls = 'kt';
    });
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

/** Bash's "$(…)" is a keyword pair and "${name:-default}" an interpolation, in Pygments. */
function bashExpansions(tokens: Token[]): void {
  const open: boolean[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.text === '$' && token.cls === '' && tokens[index + 1]?.text === '(') {
      tokens.splice(index, 2, { text: '$(', cls: 'k' });
      open.push(true);
    } else if (token.text === '(' && token.cls === 'o') {
      open.push(false);
    } else if (token.text === ')' && token.cls === 'o' && open.pop()) {
      token.cls = 'k';
    }
    const braced = /^(\$\{#?)(\w+)(:-)?([^}]*)(\})$/.exec(token.text);
    if (braced && token.cls === 'nv') {
      const [, start, name, fallback, rest, end] = braced;
      const parts = [
        { text: start, cls: 'si' },
        { text: name, cls: 'nv' },
        { text: fallback ?? '', cls: 'k' },
        { text: rest, cls: /^\w+$/.test(rest) ? 'nv' : 'p' },
        { text: end, cls: 'si' },
      ].filter((part) => part.text);
      tokens.splice(index, 1, ...parts);
      index += parts.length - 1;
    }
  }
}

const BASH: Profile = {
  grammar: 'bash',
  whitespace: 'w',
  name: '',
  identifier: String.raw`[^=\s\[\]{}()$"'\x60\\<&|;\d][^=\s\[\]{}()$"'\x60\\<&|;]*`,
  operators: String.raw`&&|\|\||[\[\]{}()=]`,
  punctuation: String.raw`[;|&]`,
  numbers: 'm',
  hashbang: true,
  scopes: { meta: 'ch', built_in: LEX, title: LEX },
  words: words(
    'nb',
    'alias bg bind break builtin caller cd command compgen complete declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout popd printf pushd pwd read readonly set shift shopt source suspend test time times trap true type typeset ulimit umask unalias unset wait',
  ),
  refine(tokens) {
    tokens.forEach((token, index) => {
      // NAME=value: Pygments classes the name as a variable.
      if (token.cls === '' && /^\w+$/.test(token.text) && tokens[index + 1]?.text === '=')
        token.cls = 'nv';
      // A number counts only as a whole run of digits.
      if (token.cls === 'm' && !/^\d+$/.test(token.text)) token.cls = '';
    });
    bashExpansions(tokens);
  },
};

/**
 * Pygments' C lexers: a directive other than #include is one preprocessor run to the line end,
 * and a number keeps its suffix ("0xFFUL").
 */
function cPreprocessorAndSuffixes(tokens: Token[]): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const directive = token.text + (tokens[index + 1]?.cls === 'cp' ? tokens[index + 1].text : '');
    if (token.cls === 'cp' && token.text.startsWith('#') && !/^#\s*include/.test(directive)) {
      let end = index + 1;
      while (end < tokens.length && tokens[end].text !== '\n' && !/^c(?!p)/.test(tokens[end].cls))
        end++;
      const rest = tokens.splice(index + 1, end - index - 1);
      token.text += rest.map((part) => part.text).join('');
    }
    const suffix = tokens[index + 1];
    if (token.cls.startsWith('m') && suffix && /^[uUlLfF]+$/.test(suffix.text)) {
      token.text += suffix.text;
      tokens.splice(index + 1, 1);
    }
  }
}

const C_FAMILY: Omit<Profile, 'grammar'> = {
  stringEscapes: true,
  whitespace: 'w',
  name: 'n',
  operators: C_OPERATORS,
  punctuation: C_PUNCTUATION,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { built_in: NAME, 'title.class': 'nc', keyword: 'k', 'class title': 'nc', type: 'kt' },
  words: {
    ...words('k', 'static extern const volatile register auto typedef struct union enum sizeof'),
    ...words('kr', 'inline restrict'),
  },
  refine(tokens: Token[]) {
    tokens.forEach((token, index) => {
      // highlight.js takes a member declared after a struct tag ("*next") for another title.
      if (token.cls === 'nc' && tokens[index - 1]?.text.includes('*')) token.cls = 'n';
      // Only the built-in types are types to Pygments; typedef names ("node_t") are names.
      if (token.cls === 'kt' && /_t$/.test(token.text) && !/^u?int\d*_t$|^size_t$/.test(token.text))
        token.cls = 'n';
    });
    cPreprocessorAndSuffixes(tokens);
  },
};

const C: Profile = { ...C_FAMILY, grammar: 'c' };
const CPP: Profile = { ...C_FAMILY, grammar: 'cpp', nameAfter: { namespace: 'nn' } };
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
  scopes: { meta: 'nd', type: NAME, variable: NAME, 'title.class': NAME },
  words: {
    ...words(
      'kd',
      'public private protected static final abstract class interface enum extends implements native synchronized transient volatile record',
    ),
    ...words('kn', 'package import'),
    ...words('kc', 'true false null'),
    ...words('kt', 'boolean byte char double float int long short void var'),
  },
  nameAfter: {
    package: 'nn',
    import: 'nn',
    class: 'nc',
    interface: 'nc',
    enum: 'nc',
    record: 'nc',
  },
  whitespaceAfter: { class: '', interface: '', enum: '', record: '' },
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
    ...words('kd', 'func var const type struct interface chan map'),
    ...words('kc', 'true false nil iota'),
  },
  refine(tokens) {
    tokens.forEach((token) => {
      if (token.cls === 'sb' || (token.cls === 's' && token.text.startsWith('`'))) token.cls = 's';
    });
  },
};

const RUST: Profile = {
  stringEscapes: true,
  grammar: 'rust',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[-!$%&*+/<=>?@\\^|~]`,
  punctuation: String.raw`::|[{}()\[\],.;:]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { built_in: 'fm', 'title.function.invoke': NAME, 'title.class': NAME, variable: NAME },
  words: {
    ...words('kd', 'let'),
    ...words('nb', 'Vec Option Some None Result Ok Err Box String'),
    ...words('kt', 'u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 bool char str'),
    Self: 'nc',
  },
  nameAfter: { struct: 'nc', enum: 'nc', trait: 'nc', union: 'nc', type: 'nc' },
  refine: wholeDeclarations,
};

const RUBY: Profile = {
  stringEscapes: true,
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
  nameAfter: { module: 'nn', class: 'nc' },
  refine(tokens) {
    tokens.forEach((token, index) => {
      // "def self.name": the receiver is a class, the name the method's.
      if (
        token.text === 'self' &&
        tokens[index - 2]?.text === 'def' &&
        tokens[index + 1]?.text === '.'
      ) {
        token.cls = 'nc';
        tokens[index + 1].cls = 'o';
        if (tokens[index + 2]) tokens[index + 2].cls = 'nf';
      }
      // A predicate method ("nil?") is one name.
      const mark = tokens[index + 1];
      if (
        /^[\p{L}_]\w*$/u.test(token.text) &&
        mark &&
        /^[?!]$/.test(mark.text) &&
        mark.cls === ''
      ) {
        token.text += mark.text;
        token.cls = 'n';
        tokens.splice(index + 1, 1);
      }
    });
  },
};

const PHP: Profile = {
  grammar: 'php',
  stringEscapes: true,
  whitespace: '',
  name: 'nx',
  operators: String.raw`[~!%^&*+=|:.<>/@?-]+`,
  punctuation: String.raw`[\[\]{}();,]+`,
  numbers: 'pygments',
  // With startinline, Pygments lexes "<?php" as the operator "<?" and the name "php".
  scopes: {
    meta: LEX,
    title: NAME,
    'function title': 'nf',
    'title.function': 'nf',
    'variable.language': 'nv',
    subst: 'si',
    type: NAME,
  },
  words: {
    ...words('k', 'array echo print static null true false'),
    ...words('nx', 'string int float bool self mixed void iterable object callable parent'),
  },
  nameAfter: { class: 'nc', interface: 'nc', trait: 'nc', function: 'nf' },
  refine(tokens) {
    for (const token of tokens)
      if (token.cls === 'nf' && /^__\w+$/.test(token.text)) token.cls = 'fm';
  },
};

const SQL: Profile = {
  grammar: 'sql',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`[+*/<>=~!@#%^&|\x60?-]`,
  punctuation: String.raw`[;:()\[\],.]`,
  numbers: 'pygments',
  // A double-quoted identifier is a symbol to Pygments.
  identifier: String.raw`"[^"\n]*"|[\p{L}_][\p{L}\p{N}_$]*`,
  scopes: { type: 'nb', built_in: 'k', literal: 'k' },
  words: words('k', 'TIMESTAMP'),
  refine(tokens) {
    for (const token of tokens)
      if (token.cls === 'n' && token.text.startsWith('"')) token.cls = 'ss';
  },
};

/** A markup declaration ("<!DOCTYPE html>", "<?xml …?>") is one preprocessor run, spaces included. */
function wholeDeclarations(tokens: Token[]): void {
  tokens.forEach((token, index) => {
    if (isBlank(token) && tokens[index - 1]?.cls === 'cp' && tokens[index + 1]?.cls === 'cp')
      token.cls = 'cp';
  });
}

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
    wholeDeclarations(tokens);
  },
};

const XML: Profile = {
  ...HTML,
  whitespace: 'w',
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
    wholeDeclarations(tokens);
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

/** Outside a rule's braces "," "(" ")" are selector operators; "url(x)" holds a URL ("sx"). */
function cssSelectorsAndUrls(tokens: Token[]): void {
  let depth = 0;
  tokens.forEach((token, index) => {
    if (token.text === '{') depth++;
    else if (token.text === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && token.cls === 'p' && /^[,()]$/.test(token.text)) token.cls = 'o';
    else if (depth === 0 && token.cls === 'n') token.cls = 'nt';
    if (
      /^s[12]?$/.test(token.cls) &&
      tokens[index - 1]?.text === '(' &&
      tokens[index - 2]?.text === 'url'
    ) {
      token.cls = /^["']/.test(token.text) ? token.cls : 'sx';
    }
    if (token.cls === 'cm') token.cls = 'c';
  });
}

const CSS: Profile = {
  grammar: 'css',
  whitespace: 'w',
  name: 'n',
  identifier: String.raw`-?[\p{L}_][\p{L}\p{N}_-]*`,
  operators: String.raw`[>+~=\[\]*-]`,
  punctuation: String.raw`[{};:(),.]`,
  numbers: 'pygments',
  scopes: { attribute: 'k', keyword: 'k', meta: 'cp', 'selector-attr': LEX, built_in: 'nb' },
  words: words(
    'kc',
    'auto none inherit initial unset bold bolder lighter normal italic solid dashed dotted double block inline inline-block flex inline-flex grid table absolute relative fixed sticky static hidden visible scroll all ease ease-in ease-out ease-in-out linear center left right top bottom middle transparent currentColor pointer default no-repeat repeat repeat-x repeat-y cover contain serif sans-serif monospace cursive nowrap wrap uppercase lowercase capitalize underline both space-between space-around column row baseline stretch',
  ),
  refine(tokens) {
    cssSigils(tokens);
    cssSelectorsAndUrls(tokens);
  },
};

const YAML_SCALAR = 'l l-Scalar l-Scalar-Plain';
const YAML_INDICATOR = 'p p-Indicator';
const YAML: Profile = {
  grammar: 'yaml',
  whitespace: 'w',
  name: 'nv',
  operators: NO_MATCH,
  punctuation: String.raw`[\[\]{},]`,
  numbers: '',
  scopes: {
    attr: 'nt',
    bullet: YAML_INDICATOR,
    string: YAML_SCALAR,
    number: YAML_SCALAR,
    literal: YAML_SCALAR,
    meta: 'nn',
    type: 'nt',
  },
  refine(tokens) {
    let flowDepth = 0;
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index];
      if (token.cls === 'nt' && token.text.endsWith(':')) {
        const key = { text: token.text.slice(0, -1), cls: 'nt' };
        tokens.splice(index, 1, key, { text: ':', cls: 'p' });
        index++;
      } else if (token.cls === 'p' && token.text !== ':') {
        token.cls = YAML_INDICATOR;
        if (token.text === '[' || token.text === '{') flowDepth++;
        if (token.text === ']' || token.text === '}') flowDepth--;
      } else if (token.cls === YAML_SCALAR && flowDepth > 0) {
        // Scalars inside [ ] and { } are flow scalars, "nv" to Pygments.
        token.cls = 'nv';
      }
    }
    // A plain scalar runs to the end of the line, spaces and quotes included; one that starts with
    // a quote is a quoted scalar.
    for (let index = 0; index < tokens.length; index++) {
      if (tokens[index].cls !== YAML_SCALAR) continue;
      if (tokens[index + 1]?.cls === 'w' && tokens[index + 2]?.cls === YAML_SCALAR) {
        tokens[index + 1].cls = YAML_SCALAR;
      }
      if (/^["']/.test(tokens[index].text) && tokens[index - 1]?.cls !== YAML_SCALAR)
        tokens[index].cls = 's';
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
      // An unordered list's bullet is followed by Whitespace, a numbered one's by plain text.
      const next = tokens[index + 1];
      if (token.cls === 'k' && /^[-*+]$/.test(token.text) && next && /^[^\S\n]+$/.test(next.text)) {
        next.cls = 'w';
      }
    });
    // A quote's marker is a keyword and the rest of its line emphasised.
    for (let index = 0; index < tokens.length; index++) {
      const marker = /^>\s*/.exec(tokens[index].text);
      if (tokens[index].cls !== 'ge' || !marker) continue;
      const quote = tokens[index].text.slice(marker[0].length);
      tokens.splice(index, 1, { text: marker[0], cls: 'k' }, { text: quote, cls: 'ge' });
    }
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
    // A hunk header is one "gu" run to the line end, the function name after "@@" included.
    tokens.forEach((token, index) => {
      const next = tokens[index + 1];
      if (token.cls === 'gu' && next?.cls === '' && !next.text.startsWith('\n')) next.cls = 'gu';
    });
  },
};

const TEX: Profile = { ...PLAIN, lexer: lexTex };

const KOTLIN: Profile = {
  grammar: 'kotlin',
  whitespace: 'w',
  name: 'n',
  operators: String.raw`\?\.|\?:|!!|[~!%^&*+=|?<>/-]`,
  punctuation: String.raw`::|[{}()\[\];,.:]`,
  numbers: 'm',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { title: 'nf', built_in: 'kt', type: NAME, 'string variable': SUBST },
  words: {
    ...words('kd', 'fun val var class object interface data enum sealed'),
    ...words('kt', 'String Int Long Double Float Boolean Char Byte Short Unit Any'),
    it: 'nb',
  },
  nameAfter: { val: 'nv', var: 'nv' },
  memberAfterDot: 'na',
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls === 'n' && tokens[index - 1]?.text === '?.') token.cls = 'na';
    });
  },
};

const SWIFT: Profile = {
  stringEscapes: true,
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
    ...words(
      'kr',
      'override mutating static final lazy weak private public internal fileprivate open',
    ),
    ...words('kc', '_ super self nil true false'),
    ...words('bp', 'print debugPrint fatalError'),
  },
  nameAfter: { import: 'nc', let: 'nv', var: 'nv' },
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
  scopes: { built_in: 'kt', title: 'nf', 'string subst': 's' },
  words: {
    ...words(
      'kt',
      'bool byte char decimal double dynamic float int long object sbyte short string uint ulong ushort var',
    ),
    args: 'n',
    null: 'k',
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
  stringEscapes: true,
  grammar: 'haskell',
  whitespace: 'w',
  name: 'n',
  identifier: String.raw`[\p{L}_][\p{L}\p{N}_']*`,
  operators: String.raw`[-!#$%&*+./<=>?@\\^|~:]+`,
  punctuation: String.raw`[(),;\[\]\x60{}]`,
  numbers: 'pygments',
  doubleQuoted: 's',
  singleQuoted: 'sc',
  scopes: { keyword: 'kr', title: NAME },
  nameAfter: { import: 'nn', module: 'nn' },
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls === 'o' && /^(::|=|\\|<-|->|=>|~)$/.test(token.text)) token.cls = 'ow';
      // A lower-case name at the start of a line is a function being defined.
      const lineStart = index === 0 || tokens[index - 1].text.endsWith('\n');
      if (lineStart && token.cls === 'n' && /^[a-z_]/.test(token.text)) token.cls = 'nf';
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
  ['Text only', PLAIN],
]);
