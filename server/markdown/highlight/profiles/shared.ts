// What several profiles use.
import { NO_MATCH, type Profile } from '../profile';
import { isBlank, type Token } from '../tokens';

/** No highlighting: the code is one run of plain text. */
export const PLAIN: Profile = {
  grammar: '',
  whitespace: '',
  name: '',
  operators: NO_MATCH,
  punctuation: NO_MATCH,
  numbers: '',
};

export const words = (cls: string, list: string): Record<string, string> =>
  Object.fromEntries(list.split(' ').map((word) => [word, cls]));

/** A markup declaration ("<!DOCTYPE html>", "<?xml …?>") is one preprocessor run, spaces included. */
export function wholeDeclarations(tokens: Token[]): void {
  tokens.forEach((token, index) => {
    if (isBlank(token) && tokens[index - 1]?.cls === 'cp' && tokens[index + 1]?.cls === 'cp')
      token.cls = 'cp';
  });
}
