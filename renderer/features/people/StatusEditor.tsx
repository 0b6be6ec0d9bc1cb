// Setting one's own status text and emoji.
import { useState } from 'react';
import { useChatStore, useUserStatus } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../src/tributary';
import { uiStore } from '../../src/ui-store';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { Emoji } from '../emoji/Emoji';
import type { ReactionType } from '../../../shared/api/types';

type StatusEmoji = { name: string; code: string; type: ReactionType };

export function StatusEditor({ accountId }: { accountId: string }) {
  const self = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const current = useUserStatus(self);
  const [text, setText] = useState(current?.status_text ?? '');
  const [emoji, setEmoji] = useState<StatusEmoji | null>(
    current?.emoji_code
      ? {
          name: current.emoji_name ?? '',
          code: current.emoji_code,
          type: current.reaction_type ?? 'unicode_emoji',
        }
      : null,
  );
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => uiStore.setState({ overlay: null });
  const save = (statusText: string, e: StatusEmoji | null) =>
    api()
      .setStatus({
        accountId,
        statusText,
        emojiName: e?.name ?? '',
        emojiCode: e?.code ?? '',
        reactionType: e?.type ?? 'unicode_emoji',
      })
      .then(close)
      .catch((err: unknown) => setError(errorText(err)));
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Set status">
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          void save(text, emoji);
        }}
      >
        <h2>Set status</h2>
        <button type="button" aria-label="Choose status emoji" onClick={() => setPicking(!picking)}>
          {emoji ? (
            <Emoji accountId={accountId} name={emoji.name} code={emoji.code} type={emoji.type} />
          ) : (
            '☺'
          )}
        </button>
        {picking ? (
          <EmojiPicker
            accountId={accountId}
            onClose={() => setPicking(false)}
            onPick={(e) => {
              setEmoji({ name: e.name, code: e.code, type: e.type });
              setPicking(false);
            }}
          />
        ) : null}
        <input
          aria-label="Status text"
          maxLength={60}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit">Save status</button>
        <button type="button" onClick={() => void save('', null)}>
          Clear status
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </div>
  );
}
