// Editing a message in place, as the public web app does: the row's content gives way to a box
// holding the message's Markdown source (the rendered HTML loses formatting), with Save and Cancel.
// Enter saves when Enter sends in compose (else Ctrl+Enter), Esc cancels. Which message is being
// edited is ui-store state, so the actions menu (or a shortcut) can start it and the row shows it.
import { useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MessageWithFlags } from '../../../shared/api/types';
import { useChatStore } from '../../store/hooks';
import { api, errorText } from '../../bridge/api';
import { htmlToText } from '../../lib/sanitize';
import { sha256Hex } from '../../lib/sha256';
import { stopEditing } from '../../store/ui-store';

export function MessageEditor({
  accountId,
  message,
}: {
  accountId: string;
  message: MessageWithFlags;
}) {
  const source = useQuery({
    queryKey: ['message-source', accountId, message.id, message.last_edit_timestamp ?? 0],
    queryFn: () => api().getMessage({ accountId, messageId: message.id }),
    staleTime: 0,
    gcTime: 0,
    retry: 1,
  });
  if (source.isPending)
    return (
      <p className="edit-form" role="status">
        Loading the message…
      </p>
    );
  const raw = source.data?.raw_content;
  return (
    <>
      {raw === undefined ? (
        <p role="alert" className="error">
          Could not load the message&apos;s source; editing its displayed text.
        </p>
      ) : null}
      <EditForm accountId={accountId} messageId={message.id} source={raw ?? null}>
        {raw ?? htmlToText(message.content)}
      </EditForm>
    </>
  );
}

function EditForm({
  accountId,
  messageId,
  source,
  children: initial,
}: {
  accountId: string;
  messageId: number;
  /** The Markdown the edit started from; null when only the displayed text was at hand. */
  source: string | null;
  children: string;
}) {
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const enterSends = useChatStore(
    (s) => s.accounts[accountId]?.settings.user.enter_sends !== false,
  );
  const save = async () => {
    if (saving) return;
    if (text === initial) {
      stopEditing(); // nothing changed: no edit, and no "(edited)" marker
      return;
    }
    setSaving(true);
    setError(null);
    try {
      // The source's hash lets the server refuse an edit of text changed meanwhile (an edit made
      // offline and sent later, above all: main keeps it as a draft then).
      const prevContentSha256 = source === null ? undefined : await sha256Hex(source);
      await api().editMessage({ accountId, messageId, content: text, prevContentSha256 });
      stopEditing();
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation(); // Esc ends the edit, not the view
      stopEditing();
      return;
    }
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const modifier = e.ctrlKey || e.metaKey;
    if (enterSends ? !e.shiftKey && !modifier : modifier) {
      e.preventDefault();
      void save();
    }
  };
  return (
    <form
      className="edit-form"
      aria-label="Edit message"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label="Edit message content"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      <div className="edit-form-actions">
        <button type="submit" className="primary" disabled={saving}>
          Save
        </button>
        <button type="button" onClick={stopEditing}>
          Cancel
        </button>
        <span className="edit-form-hint">
          {enterSends ? 'Enter to save, Shift+Enter for a new line' : 'Ctrl+Enter to save'}; Esc to
          cancel
        </span>
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
