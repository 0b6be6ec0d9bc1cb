// The public server's rule for custom emoji names, shared by the server (which refuses) and the
// upload form (which says so before sending). Surrounding spaces are dropped and inner spaces
// become underscores first, as the server does with the name in the URL.

export const MAX_EMOJI_NAME_LENGTH = 60;

export function normalizeEmojiName(name: string): string {
  return name.trim().replace(/ /g, '_');
}

/** Why a (normalized) name is refused, or null when it is fine. */
export function emojiNameProblem(name: string): string | null {
  if (name === '') return 'Emoji name is missing';
  if ([...name].length > MAX_EMOJI_NAME_LENGTH) return 'Emoji name is too long';
  if (!/^[0-9a-z_-]+$/.test(name)) {
    return 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
  }
  if (/[_-]$/.test(name)) return 'Emoji names must end with either a letter or digit.';
  return null;
}
