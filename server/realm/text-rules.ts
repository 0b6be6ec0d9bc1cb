// Text rules shared by every place that stores user-visible names and labels. The public server
// refuses "unprintable" characters (Unicode categories Cc and Cs: C0/C1 control characters and lone
// surrogates) in topics and names, and NUL bytes in any stored text; stored data never holds them.
import { badRequest } from '../http/errors';
import { LIMITS } from '../config';

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

// Bidirectional embeddings, overrides and isolates: a name holding one can display as another
// ("#general" spelled backwards), so names refuse them as the public server's check_stream_name
// refuses unassigned and control characters.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
const UNASSIGNED = /\p{Cn}/u;
// What looks like nothing: whitespace, zero-width characters, joiners and other format characters.
const INVISIBLE = /^[\s\p{Cf}\u115f\u1160\u3164\uffa0]*$/u;

export interface NameRule {
  /** How the name is called in messages: "Channel name", "User group name", "Navigation view name". */
  label: string;
  maxLength: number;
  /** The public server's wording where it has its own for these two refusals. */
  emptyMessage?: string;
  tooLongMessage?: string;
}

/**
 * The one check for a name that people see (channels, groups, navigation views), whether it is
 * created or renamed: trimmed; refused when it shows nothing, is longer than the rule allows, or
 * holds a control, lone surrogate, unassigned or bidirectional-control character.
 */
export function checkDisplayName(raw: string, rule: NameRule): string {
  const name = raw.trim();
  if (INVISIBLE.test(name)) throw badRequest(rule.emptyMessage ?? `${rule.label} can't be empty.`);
  const chars = [...name];
  if (chars.length > rule.maxLength) {
    throw badRequest(
      rule.tooLongMessage ?? `${rule.label} too long (limit: ${rule.maxLength} characters).`,
    );
  }
  const bad = chars.findIndex(
    (char) => UNPRINTABLE.test(char) || UNASSIGNED.test(char) || BIDI_CONTROL.test(char),
  );
  if (bad >= 0) {
    throw badRequest(`Invalid character in ${rule.label.toLowerCase()}, at position ${bad + 1}.`);
  }
  return name;
}

/** Stored text that is not a name (a URL fragment, a description): no NUL or other C0/C1 control. */
export function checkStoredText(raw: string, label: string, maxLength: number): string {
  if ([...raw].length > maxLength) {
    throw badRequest(`${label} too long (limit: ${maxLength} characters).`);
  }
  if (/[\p{Cc}\p{Cs}]/u.test(raw.replace(/[\t\n\r]/g, ''))) {
    throw badRequest(`Invalid characters in ${label.toLowerCase()}.`);
  }
  return raw;
}

const CHANNEL_NAME_RULE = { label: 'Channel name', maxLength: LIMITS.maxStreamNameLength };

/** The channel-name rule, for creating a channel and renaming one alike. */
export const checkChannelName = (name: string): string => checkDisplayName(name, CHANNEL_NAME_RULE);
