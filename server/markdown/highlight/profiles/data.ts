// Profiles of data and change formats: JSON, YAML, SQL, diffs.
import { NO_MATCH, type Profile } from '../profile';
import { splitTokens } from '../tokens';
import { words } from './shared';

export const JSON_PROFILE: Profile = {
  grammar: 'json',
  whitespace: 'w',
  name: 'n',
  operators: NO_MATCH,
  punctuation: String.raw`[{}\[\]:,]`,
  numbers: 'pygments',
  scopes: { attr: 'nt', 'literal keyword': 'kc' },
};

export const SQL: Profile = {
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

const YAML_SCALAR = 'l l-Scalar l-Scalar-Plain';
const YAML_INDICATOR = 'p p-Indicator';
export const YAML: Profile = {
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
    splitTokens(tokens, (token) =>
      token.cls === 'nt' && token.text.endsWith(':')
        ? [
            { text: token.text.slice(0, -1), cls: 'nt' },
            { text: ':', cls: 'p' },
          ]
        : undefined,
    );
    let flowDepth = 0;
    for (const token of tokens) {
      if (token.cls === 'p' && token.text !== ':') {
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

export const DIFF: Profile = {
  grammar: 'diff',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
  scopes: { meta: 'gu', comment: 'gh' },
  refine(tokens) {
    splitTokens(tokens, (token, index) => {
      if (token.cls === 'gh' && token.text.startsWith('---')) token.cls = 'gd';
      else if (token.cls === 'gh' && token.text.startsWith('+++')) token.cls = 'gi';
      const lineStart = index === 0 || tokens[index - 1].text.endsWith('\n');
      // A context line's leading space is Whitespace.
      if (token.cls !== '' || !lineStart || !token.text.startsWith(' ')) return undefined;
      return [
        { text: ' ', cls: 'w' },
        { text: token.text.slice(1), cls: '' },
      ];
    });
    // A hunk header is one "gu" run to the line end, the function name after "@@" included.
    tokens.forEach((token, index) => {
      const next = tokens[index + 1];
      if (token.cls === 'gu' && next?.cls === '' && !next.text.startsWith('\n')) next.cls = 'gu';
    });
  },
};
