import type { Token } from './tokens';

// highlight.js's LaTeX grammar knows too little of math mode to say what Pygments' TeX lexer
// says, and that lexer is small, so TeX is lexed here with the same states: text, a command and
// its options, inline math ($…$, \(…\)) and display math ($$…$$, \[…\]).
type State = 'text' | 'command' | 'inline' | 'display';

interface Rule {
  pattern: RegExp;
  cls: string;
  next?: State | 'pop';
}

const GENERAL: Rule[] = [
  { pattern: /%.*?(?:\n|$)/y, cls: 'c' },
  { pattern: /[{}]/y, cls: 'nb' },
  { pattern: /[&_^]/y, cls: 'nb' },
];

const MATH: Rule[] = [
  { pattern: /\\(?:[a-zA-Z]+|\S?)/y, cls: 'nv' },
  ...GENERAL,
  { pattern: /[0-9]+/y, cls: 'm' },
  { pattern: /[-=!+*/()[\]]/y, cls: 'o' },
  { pattern: /[^=!+*/()[\]\\$%&_^{}0-9-]+/y, cls: 'nb' },
];

const RULES: Record<State, Rule[]> = {
  text: [
    { pattern: /\\\[/y, cls: 'sb', next: 'display' },
    { pattern: /\\\(/y, cls: 's', next: 'inline' },
    { pattern: /\$\$/y, cls: 'sb', next: 'display' },
    { pattern: /\$/y, cls: 's', next: 'inline' },
    { pattern: /\\(?:[a-zA-Z@_:]+|\S?)/y, cls: 'k', next: 'command' },
    ...GENERAL,
    { pattern: /[^\\$%&_^{}]+/y, cls: '' },
  ],
  command: [
    { pattern: /\[.*?\]/y, cls: 'na' },
    { pattern: /\*/y, cls: 'k' },
  ],
  inline: [
    { pattern: /\\\)/y, cls: 's', next: 'pop' },
    { pattern: /\$/y, cls: 's', next: 'pop' },
    ...MATH,
  ],
  display: [
    { pattern: /\\\]/y, cls: 's', next: 'pop' },
    { pattern: /\$\$/y, cls: 's', next: 'pop' },
    { pattern: /\$/y, cls: 'nb' },
    ...MATH,
  ],
};

export function lexTex(code: string): Token[] {
  const tokens: Token[] = [];
  const stack: State[] = ['text'];
  let at = 0;
  while (at < code.length) {
    const state = stack[stack.length - 1];
    const rule = RULES[state].find(({ pattern }) => {
      pattern.lastIndex = at;
      return pattern.test(code);
    });
    if (!rule) {
      // A command without options ends at once; anything else unmatched is one plain character.
      if (state === 'command') stack.pop();
      else tokens.push({ text: code[at++], cls: '' });
      continue;
    }
    const end = rule.pattern.lastIndex;
    tokens.push({ text: code.slice(at, end), cls: rule.cls });
    at = end;
    if (rule.next === 'pop') stack.pop();
    else if (rule.next) stack.push(rule.next);
  }
  return tokens;
}
