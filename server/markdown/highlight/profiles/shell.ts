// The Bash profile.
import { LEX, type Profile } from '../profile';
import { splitTokens, type Token } from '../tokens';
import { words } from './shared';

/** Bash's "$(…)" is a keyword pair and "${name:-default}" an interpolation, in Pygments. */
function bashExpansions(tokens: Token[]): void {
  const open: boolean[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.text === '$' && token.cls === '' && tokens[index + 1]?.text === '(') {
      token.cls = 'k';
      tokens[++index].cls = 'k';
      open.push(true);
    } else if (token.text === '(' && token.cls === 'o') {
      open.push(false);
    } else if (token.text === ')' && token.cls === 'o' && open.pop()) {
      token.cls = 'k';
    }
  }
  splitTokens(tokens, (token) => {
    const braced = /^(\$\{#?)(\w+)(:-)?([^}]*)(\})$/.exec(token.text);
    if (!braced || token.cls !== 'nv') return undefined;
    const [, start, name, fallback, rest, end] = braced;
    return [
      { text: start, cls: 'si' },
      { text: name, cls: 'nv' },
      { text: fallback ?? '', cls: 'k' },
      { text: rest, cls: /^\w+$/.test(rest) ? 'nv' : 'p' },
      { text: end, cls: 'si' },
    ];
  });
}

export const BASH: Profile = {
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
