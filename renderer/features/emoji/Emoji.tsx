// One emoji outside message content (reactions, the picker, statuses), drawn as message content
// draws it: a cell of the bundled sprite sheet for unicode emoji, the realm's image for custom
// emoji, `:name:` when the user's emojiset is text (styles/message-content.css), or when a custom
// emoji is unknown. Hidden from assistive technology: the control or line it is in names it.
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { mediaUrl } from '../../bridge/media';
import { normalizeEmojiCode } from '../../../shared/emoji/code';
import type { ReactionType } from '../../../shared/api/types';

/** A realm's custom emoji as register's `realm_emoji` lists them (by id). */
export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated?: boolean;
}

/** The realm's custom emoji, from the realm settings the store keeps as register sent them. */
export function useRealmEmoji(): Readonly<Record<string, RealmEmoji>> | undefined {
  return useChatStore(
    (s) =>
      selectActiveAccount(s)?.settings.realm.realm_emoji as
        Readonly<Record<string, RealmEmoji>> | undefined,
  );
}

interface EmojiProps {
  /** For custom emoji images; the active account by default. */
  accountId?: string;
  name: string;
  code: string;
  type?: ReactionType;
  /** Always a picture, whatever the emojiset (the picker, as in the public app). */
  picture?: boolean;
}

/** A custom emoji: the realm's image, or its `:name:` in the text emojiset or when unknown. */
function CustomEmoji({ accountId, name, code, picture }: EmojiProps) {
  const realm = useRealmEmoji();
  const active = useChatStore((s) => s.activeAccountId);
  const asText = useChatStore(
    (s) => !picture && selectActiveAccount(s)?.settings.user.emojiset === 'text',
  );
  const custom = asText ? undefined : realm?.[code];
  const account = accountId ?? active;
  const src = custom && account ? mediaUrl(account, custom.source_url) : null;
  if (src) return <img className="emoji" src={src} alt={`:${name}:`} aria-hidden="true" />;
  return <span aria-hidden="true">{`:${name}:`}</span>;
}

/**
 * Unicode emoji need nothing from the store (the stylesheet follows the emojiset), so a picker
 * of two thousand of them subscribes to nothing.
 */
export function Emoji(props: EmojiProps) {
  const { name, code, type = 'unicode_emoji', picture = false } = props;
  if (type === 'realm_emoji') return <CustomEmoji {...props} />;
  if (type !== 'unicode_emoji') return <span aria-hidden="true">{`:${name}:`}</span>;
  return (
    <span
      className={`emoji emoji-${normalizeEmojiCode(code)}${picture ? ' emoji-picture' : ''}`}
      aria-hidden="true"
    >
      {`:${name}:`}
    </span>
  );
}
