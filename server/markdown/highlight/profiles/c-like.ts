// Profiles of the C-like languages: C, C++, Objective-C, Java, Go, Rust, Kotlin, Swift, C#.
import { C_OPERATORS, C_PUNCTUATION, NAME, type Profile, SUBST } from '../profile';
import type { Token } from '../tokens';
import { wholeDeclarations, words } from './shared';

/**
 * Pygments' C lexers: a directive other than #include is one preprocessor run to the line end,
 * and a number keeps its suffix ("0xFFUL").
 */
function cPreprocessorAndSuffixes(tokens: Token[]): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const directive = token.text + (tokens[index + 1]?.cls === 'cp' ? tokens[index + 1].text : '');
    if (token.cls === 'cp' && token.text.startsWith('#') && !/^#\s*include/.test(directive)) {
      // One class for the rest of the line (up to a comment) makes it one span.
      const inLine = (next?: Token) => next && next.text !== '\n' && !/^c(?!p)/.test(next.cls);
      while (inLine(tokens[index + 1])) tokens[++index].cls = 'cp';
      continue;
    }
    const suffix = tokens[index + 1];
    if (token.cls.startsWith('m') && suffix && /^[uUlLfF]+$/.test(suffix.text))
      suffix.cls = token.cls;
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

export const C: Profile = { ...C_FAMILY, grammar: 'c' };
export const CPP: Profile = { ...C_FAMILY, grammar: 'cpp', nameAfter: { namespace: 'nn' } };
export const OBJECTIVE_C: Profile = { ...C_FAMILY, grammar: 'objectivec' };

export const JAVA: Profile = {
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
  member: { after: ['.'], cls: 'na' },
};

export const GO: Profile = {
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

export const RUST: Profile = {
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

export const KOTLIN: Profile = {
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
    ...words(
      'kd',
      'fun val var class object interface data enum sealed private public protected internal suspend companion override open abstract lateinit inline const',
    ),
    ...words('kt', 'String Int Long Double Float Boolean Char Byte Short Unit Any'),
    it: 'nb',
  },
  nameAfter: { val: 'nv', var: 'nv' },
  member: { after: ['.'], cls: 'na' },
  refine(tokens) {
    tokens.forEach((token, index) => {
      if (token.cls === 'n' && tokens[index - 1]?.text === '?.') token.cls = 'na';
    });
  },
};

export const SWIFT: Profile = {
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

export const CSHARP: Profile = {
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
