// Unicode emoji names and codes are the public server's own table (shared/emoji/names.ts): every
// name it accepts, aliases included ("+1", "thumbs_up" and "like" are all 1f44d), and its codes in
// the API's form (no FE0F). Reactions and statuses validate against it, and against the realm's
// custom emoji (resources/realm/realm-emoji.ts supplies the table).
import { emojiCodeForName, emojiNameForCode } from '../../shared/emoji/names';
import { neutralName } from '../../shared/api/public-names';

/** The extra emoji the server provides besides unicode and realm emoji (reaction_type svc_extra_emoji). */
export const EXTRA_EMOJI = new Set(['zulip']);

export function unicodeEmojiCodeForName(name: string): string | undefined {
  return emojiCodeForName(name);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return emojiNameForCode(code) !== undefined;
}

export type EmojiCheck =
  | { ok: true; emoji_name: string; emoji_code: string; reaction_type: string }
  | { ok: false; msg: string };

/** A realm (custom) emoji as reactions and statuses see it; `id` is its emoji_code. */
export interface CustomEmoji {
  id: string;
  name: string;
  deactivated: boolean;
}

/** The realm's custom emoji, looked up by id (emoji_code) and by active name. */
export interface CustomEmojiTable {
  byId(id: string): CustomEmoji | undefined;
  activeByName(name: string): CustomEmoji | undefined;
}

export const NO_CUSTOM_EMOJI: CustomEmojiTable = {
  byId: () => undefined,
  activeByName: () => undefined,
};

/**
 * Validates an emoji as statuses and reactions accept it. Without an emoji_code the name decides
 * the type, as the public server resolves names: an active custom emoji first, then the extra
 * emoji, then unicode (any reaction_type given is then ignored). With an emoji_code the type
 * (default unicode_emoji) decides; the code must be one of the table's exactly (no FE0F, as the
 * public server compares it) and the name any name of that code, aliases included. The name is
 * kept as given, so a reaction with "thumbs_up" is stored and sent as "thumbs_up".
 */
export function checkEmoji(
  name: string,
  code?: string,
  type?: string,
  custom: CustomEmojiTable = NO_CUSTOM_EMOJI,
): EmojiCheck {
  if (code === undefined) {
    const realm = custom.activeByName(name);
    if (realm) {
      return { ok: true, emoji_name: name, emoji_code: realm.id, reaction_type: 'realm_emoji' };
    }
    if (EXTRA_EMOJI.has(name)) {
      return { ok: true, emoji_name: name, emoji_code: name, reaction_type: 'svc_extra_emoji' };
    }
    const unicode = unicodeEmojiCodeForName(name);
    if (unicode === undefined) return { ok: false, msg: `Emoji '${name}' does not exist` };
    return { ok: true, emoji_name: name, emoji_code: unicode, reaction_type: 'unicode_emoji' };
  }
  // The public name of the extra emoji type (zulip_extra_emoji) means the spec's svc_extra_emoji.
  const reactionType = neutralName(type ?? 'unicode_emoji');
  switch (reactionType) {
    case 'unicode_emoji': {
      if (!isUnicodeEmojiCode(code)) return { ok: false, msg: 'Invalid emoji code.' };
      if (unicodeEmojiCodeForName(name) !== code) return { ok: false, msg: 'Invalid emoji name.' };
      return { ok: true, emoji_name: name, emoji_code: code, reaction_type: reactionType };
    }
    case 'realm_emoji': {
      const emoji = custom.byId(code);
      if (!emoji) return { ok: false, msg: 'Invalid custom emoji.' };
      if (emoji.name !== name) return { ok: false, msg: 'Invalid custom emoji name.' };
      if (emoji.deactivated) return { ok: false, msg: 'This custom emoji has been deactivated.' };
      return { ok: true, emoji_name: name, emoji_code: emoji.id, reaction_type: reactionType };
    }
    case 'svc_extra_emoji':
      if (!EXTRA_EMOJI.has(name) || code !== name) {
        return { ok: false, msg: 'Invalid emoji name.' };
      }
      return { ok: true, emoji_name: name, emoji_code: name, reaction_type: reactionType };
    default:
      return { ok: false, msg: `Invalid reaction type '${reactionType}'` };
  }
}
