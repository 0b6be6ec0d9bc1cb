// The Python profile (Python 3 and 2.x lex alike here).
import { NAME, type Profile } from '../profile';
import { isBlank, splitTokens, type Token } from '../tokens';
import { words } from './shared';

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
  splitTokens(tokens, (token) => {
    const affix = /^[a-zA-Z]{1,2}(?=["'])/.exec(token.text);
    if (!affix || !/^s[12bd]?$/.test(token.cls)) return undefined;
    return [
      { text: affix[0], cls: 'sa' },
      { text: token.text.slice(affix[0].length), cls: token.cls },
    ];
  });
}

export const PYTHON: Profile = {
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
