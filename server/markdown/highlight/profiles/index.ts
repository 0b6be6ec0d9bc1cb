import { C_OPERATORS, C_PUNCTUATION, LEX, NO_MATCH, type Profile } from '../profile';
import { C, CPP, CSHARP, GO, JAVA, KOTLIN, OBJECTIVE_C, RUST, SWIFT } from './c-like';
import { DIFF, JSON_PROFILE, SQL, YAML } from './data';
import { HASKELL } from './haskell';
import { JAVASCRIPT, TYPESCRIPT } from './javascript';
import { CSS, HTML, MARKDOWN, TEX, XML } from './markup';
import { PYTHON } from './python';
import { PHP, RUBY } from './ruby-php';
import { PLAIN } from './shared';
import { PYTHON_SESSION, SHELL_SESSION, sessionLexer } from '../session-lexer';
import { BASH } from './shell';

// Each profile restates, over a highlight.js grammar, the choices of the Pygments lexer the public
// server uses for that language: which whitespace is a Whitespace token, how plain names,
// operators and punctuation are classed, and the words its keyword tables class differently.

// Languages whose Pygments lexer is not restated in these modules get highlight.js's classes through the
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
  ['Python console session', { ...PLAIN, lexer: sessionLexer(PYTHON_SESSION, PYTHON) }],
  ['JavaScript', JAVASCRIPT],
  ['JSX', JAVASCRIPT],
  ['TypeScript', TYPESCRIPT],
  ['TSX', TYPESCRIPT],
  ['JSON', JSON_PROFILE],
  ['JSON5', JSON_PROFILE],
  ['JSONLD', JSON_PROFILE],
  ['Bash', BASH],
  ['Bash Session', { ...PLAIN, lexer: sessionLexer(SHELL_SESSION, BASH) }],
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
  [
    'Lua',
    generic('lua', {
      name: 'nv',
      scopes: { keyword: 'kr', title: 'nf', 'title.function': 'nf' },
      words: { local: 'kd' },
    }),
  ],
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
  [
    'Makefile',
    generic('makefile', {
      name: '',
      identifier: String.raw`[^\s:=$()#]+`,
      operators: String.raw`[:=]`,
      punctuation: NO_MATCH,
      scopes: { section: LEX },
      refine(tokens) {
        // A rule's target is a function name to Pygments.
        tokens.forEach((token, index) => {
          const lineStart = index === 0 || tokens[index - 1].text === '\n';
          if (lineStart && token.cls === '' && tokens[index + 1]?.text === ':') token.cls = 'nf';
        });
      },
    }),
  ],
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
