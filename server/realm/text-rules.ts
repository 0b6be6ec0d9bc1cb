// Text rules shared by every place that stores user-visible names and labels. The public server
// refuses "unprintable" characters (Unicode categories Cc and Cs: C0/C1 control characters and lone
// surrogates) in topics and names, and NUL bytes in any stored text; stored data never holds them.
import { badRequest } from '../http/errors';

const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/** Whether the text holds a control character (tab, CR, LF and NUL included) or a lone surrogate. */
export function hasUnprintable(text: string): boolean {
  return UNPRINTABLE.test(text);
}

const MAX_FULL_NAME_LENGTH = 100;

/** The trimmed full name, or 400 BAD_REQUEST for an empty, too long or unprintable one. */
export function checkFullName(raw: string): string {
  const fullName = raw.trim();
  if (fullName === '' || [...fullName].length > MAX_FULL_NAME_LENGTH) {
    throw badRequest('Invalid full name');
  }
  if (hasUnprintable(fullName)) throw badRequest('Invalid characters in name!');
  return fullName;
}
