// The Haskell profile.
import { NAME, type Profile } from '../profile';

export const HASKELL: Profile = {
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
