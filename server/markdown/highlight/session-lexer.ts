import { classify } from './classify';
import type { Profile } from './profile';
import { scopeTree } from './scope-tree';
import type { Token } from './tokens';

// Console sessions ("console", "pycon") as Pygments' session lexers show them: the prompt is "gp",
// the command after it is highlighted in the session's language, the rest is program output "go".

interface Session {
  /** A command line's prompt tokens and the command after them; null for any other line. */
  prompt: (line: string) => { prompt: Token[]; command: string } | null;
  /** The prompt of a line that continues the previous command ("... " after ">>> "). */
  continuation?: RegExp;
  /** Tokens of a line that is neither command nor plain output (a traceback's), or null. */
  special?: (line: string) => Token[] | null;
}

export function sessionLexer(session: Session, profile: Profile): (code: string) => Token[] {
  const highlight = (command: string) => classify(scopeTree(command, profile.grammar), profile);
  return (code) => {
    const tokens: Token[] = [];
    let inCommand = false;
    code.split('\n').forEach((line, index) => {
      if (index > 0) tokens.push({ text: '\n', cls: '' });
      const command = session.prompt(line);
      const continued = inCommand ? session.continuation?.exec(line) : null;
      if (command) {
        tokens.push(...command.prompt, ...highlight(command.command));
      } else if (continued) {
        tokens.push(
          { text: continued[0], cls: 'gp' },
          ...highlight(line.slice(continued[0].length)),
        );
      } else if (line) {
        tokens.push(...(session.special?.(line) ?? [{ text: line, cls: 'go' }]));
      }
      inCommand = Boolean(command ?? continued);
    });
    return tokens;
  };
}

// A shell prompt: an optional virtualenv "(venv)", then "$ ", "# ", "user@host:~$ " or "[x]$ ".
const SHELL_PROMPT =
  /^(?:(\(\S+\))(\s*))?((?:\[[^\]\n]*\]|\w\S*[@:]\S+(?:\s+\S+)?)?\s*[$#%]\s*)(.*)$/;

export const SHELL_SESSION: Session = {
  prompt(line) {
    const match = SHELL_PROMPT.exec(line);
    if (!match) return null;
    const [, venv, space, prompt, command] = match;
    const tokens: Token[] = venv
      ? [
          { text: venv, cls: 'gp gp-VirtualEnv' },
          { text: space, cls: '' },
        ]
      : [];
    return { prompt: [...tokens, { text: prompt, cls: 'gp' }], command };
  },
};

const TRACEBACK_FRAME = /^(\s+File )("[^"]*")(, line )(\d+)(?:(, in )(.*))?$/;
const PYTHON_EXCEPTION = /^([A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit))(:?)(.*)$/;

export const PYTHON_SESSION: Session = {
  prompt(line) {
    return line.startsWith('>>> ') || line === '>>>'
      ? { prompt: [{ text: line.slice(0, 4), cls: 'gp' }], command: line.slice(4) }
      : null;
  },
  continuation: /^\.\.\.(?: |$)/,
  special(line) {
    if (line.startsWith('Traceback (most recent call last):')) return [{ text: line, cls: 'gt' }];
    const frame = TRACEBACK_FRAME.exec(line);
    if (frame) {
      const classes = ['', 'nb', '', 'm', '', 'n'];
      return frame.slice(1).map((text, index) => ({ text: text ?? '', cls: classes[index] }));
    }
    if (/^\s/.test(line)) return [{ text: line, cls: '' }];
    const error = PYTHON_EXCEPTION.exec(line);
    if (!error) return null;
    const [, name, colon, message] = error;
    const rest: Token[] = message.trim()
      ? [
          { text: /^\s*/.exec(message)?.[0] ?? '', cls: '' },
          { text: message.trim(), cls: 'n' },
        ]
      : [];
    return [{ text: name, cls: 'gr' }, { text: colon, cls: '' }, ...rest];
  },
};
