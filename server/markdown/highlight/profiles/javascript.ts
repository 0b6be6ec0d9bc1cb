// Profiles of JavaScript and TypeScript (and JSX/TSX, which Pygments lexes alike).
import { NAME, type Profile } from '../profile';
import { words } from './shared';

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

export const JAVASCRIPT: Profile = {
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

export const TYPESCRIPT: Profile = {
  ...JAVASCRIPT,
  grammar: 'typescript',
  words: {
    ...JS_WORDS,
    ...words('kd', 'interface enum'),
    ...words('k', 'implements private protected public readonly static abstract declare'),
    ...words('kr', 'as'),
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
