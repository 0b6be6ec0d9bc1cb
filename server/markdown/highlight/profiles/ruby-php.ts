// Profiles of Ruby and PHP (PHP with the server's startinline option).
import { LEX, NAME, type Profile } from '../profile';
import { splitTokens } from '../tokens';
import { words } from './shared';

export const RUBY: Profile = {
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
    'puts print require require_relative raise attr_accessor attr_reader attr_writer include extend p name',
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
        token.cls = 'n';
        mark.cls = 'n';
      }
    });
    // A hash key written "key:" is the symbol and a punctuation mark.
    splitTokens(tokens, (token) =>
      token.cls === 'ss' && /^\w+:$/.test(token.text)
        ? [
            { text: token.text.slice(0, -1), cls: 'ss' },
            { text: ':', cls: 'p' },
          ]
        : undefined,
    );
  },
};

export const PHP: Profile = {
  grammar: 'php',
  stringEscapes: true,
  whitespace: '',
  name: 'nx',
  // A qualified name ("App\\Http\\Request") is one name.
  identifier: String.raw`\\?[\p{L}_][\p{L}\p{N}_]*(?:\\[\p{L}_][\p{L}\p{N}_]*)*`,
  operators: String.raw`[~!%^&*+=|:.<>/@?-]+`,
  punctuation: String.raw`[\[\]{}();,]+`,
  numbers: 'pygments',
  // With startinline, Pygments lexes "<?php" as the operator "<?" and the name "php".
  scopes: {
    meta: LEX,
    title: NAME,
    'title.class': NAME,
    'function title': 'nf',
    'title.function': 'nf',
    'variable.language': 'nv',
    subst: 'si',
    type: NAME,
  },
  words: {
    ...words('k', 'array echo print static null true false'),
    ...words('nx', 'string int float bool self mixed void iterable object callable parent'),
    ...words(
      'nb',
      'count strlen str_replace explode implode json_encode json_decode array_map array_filter array_keys array_values array_merge in_array var_dump print_r sprintf printf is_array is_null intval strtolower strtoupper trim substr strpos preg_match preg_replace date time file_get_contents',
    ),
  },
  nameAfter: { class: 'nc', interface: 'nc', trait: 'nc', function: 'nf' },
  member: { after: ['->', '::', '?->'], cls: 'na' },
  refine(tokens) {
    for (const token of tokens)
      if (token.cls === 'nf' && /^__\w+$/.test(token.text)) token.cls = 'fm';
    // highlight.js splits a qualified name at its backslashes; Pygments keeps it whole.
    for (let index = 1; index < tokens.length - 1; index++) {
      const [before, token, after] = [tokens[index - 1], tokens[index], tokens[index + 1]];
      if (token.text !== '\\' || !/^n[xc]$/.test(before.cls) || !/^n[xc]$/.test(after.cls))
        continue;
      // One class for the parts makes them one span.
      before.cls = 'nx';
      token.cls = 'nx';
      after.cls = 'nx';
    }
  },
};
