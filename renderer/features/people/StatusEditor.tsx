// The Set status dialog, as the public web app's: emoji and text, its suggested statuses, and
// "Automatically clear status" (scheduled_end_time; a server without it says so by listing the
// parameter as ignored, and the status is saved without an end). A modal dialog (lib/ui/Dialog)
// with the emoji picker as a popover on its emoji button: Esc closes the picker first.
import { useState } from 'react';
import { useChatStore, useUserStatus } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../bridge/api';
import { uiStore } from '../../store/ui-store';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { ModalDialog } from '../../lib/ui/Dialog';
import { Emoji } from '../emoji/Emoji';
import type { ReactionType } from '../../../shared/api/types';
import './status-editor.css';
import { CLEAR_AFTER_CHOICES, STATUS_SUGGESTIONS, clearsAtText } from './status-choices';

type StatusEmoji = { name: string; code: string; type: ReactionType };

/** The choice that keeps a status's current end time (any save without one drops it). */
const KEEP = 'keep';

export function StatusEditor({ accountId }: { accountId: string }) {
  const self = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const current = useUserStatus(self);
  const currentEnd = current?.scheduled_end_time;
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
  const [clearAfter, setClearAfter] = useState(currentEnd ? KEEP : 'never');
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => uiStore.setState({ overlay: null });
  const endTime = (): number | undefined => {
    if (clearAfter === KEEP) return currentEnd;
    const choice = CLEAR_AFTER_CHOICES.find((c) => c.id === clearAfter);
    return choice?.endAt(new Date()) ?? undefined;
  };
  const save = (statusText: string, e: StatusEmoji | null) => {
    const end = statusText || e ? endTime() : undefined;
    return api()
      .setStatus({
        accountId,
        statusText,
        emojiName: e?.name ?? '',
        emojiCode: e?.code ?? '',
        reactionType: e?.type ?? 'unicode_emoji',
        scheduledEndTime: end,
      })
      .then((res) => {
        if (
          end !== undefined &&
          res.ignored_parameters_unsupported?.includes('scheduled_end_time')
        ) {
          setNotice('Status saved. This server cannot clear statuses automatically.');
        } else close();
      })
      .catch((err: unknown) => setError(errorText(err)));
  };
  return (
    <ModalDialog
      label="Set status"
      className="status-editor"
      onClose={close}
      // The text, as the public web app does: most people type a status.
      onOpenAutoFocus={(e) => {
        e.preventDefault();
        (e.currentTarget as HTMLElement)
          .querySelector<HTMLInputElement>('input[aria-label="Status text"]')
          ?.focus();
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save(text.trim(), emoji);
        }}
      >
        <h2>Set status</h2>
        <div className="status-input-row">
          <EmojiPicker
            accountId={accountId}
            open={picking}
            onOpenChange={setPicking}
            align="start"
            trigger={
              <button
                type="button"
                className="status-emoji-button"
                aria-label="Choose status emoji"
                title="Select emoji"
              >
                {emoji ? (
                  <Emoji
                    accountId={accountId}
                    name={emoji.name}
                    code={emoji.code}
                    type={emoji.type}
                  />
                ) : (
                  '☺'
                )}
              </button>
            }
            onPick={(e) => {
              setEmoji({ name: e.name, code: e.code, type: e.type });
              setPicking(false);
            }}
          />
          <input
            aria-label="Status text"
            placeholder="Your status"
            maxLength={60}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {text || emoji ? (
            <button
              type="button"
              className="status-clear-input"
              aria-label="Clear status text and emoji"
              onClick={() => {
                setText('');
                setEmoji(null);
              }}
            >
              ×
            </button>
          ) : null}
        </div>
        <ul className="status-suggestions" aria-label="Suggested statuses">
          {STATUS_SUGGESTIONS.map((s) => (
            <li key={s.text}>
              <button
                type="button"
                onClick={() => {
                  setText(s.text);
                  setEmoji({ name: s.emojiName, code: s.emojiCode, type: 'unicode_emoji' });
                }}
              >
                <Emoji
                  accountId={accountId}
                  name={s.emojiName}
                  code={s.emojiCode}
                  type="unicode_emoji"
                />
                {s.text}
              </button>
            </li>
          ))}
        </ul>
        <label className="status-clear-after">
          Automatically clear status
          <select value={clearAfter} onChange={(e) => setClearAfter(e.target.value)}>
            {currentEnd ? (
              <option value={KEEP}>{clearsAtText(currentEnd, new Date())}</option>
            ) : null}
            {CLEAR_AFTER_CHOICES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <div className="status-actions">
          <button type="submit" className="primary">
            Save status
          </button>
          <button type="button" onClick={() => void save('', null)}>
            Clear status
          </button>
          <button type="button" onClick={close}>
            {notice ? 'Close' : 'Cancel'}
          </button>
        </div>
        {notice ? <p role="status">{notice}</p> : null}
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </ModalDialog>
  );
}
