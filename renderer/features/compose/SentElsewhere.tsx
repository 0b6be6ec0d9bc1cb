// "Sent! Your message is outside your current view." — the public web app's notice after a send
// the list on screen will not show (another topic, channel or conversation), with a link there.
// Whether the view shows it is the list's own rule: the outbox entries matched to the view's
// narrow (selectOutboxForNarrow), so the notice and the list never disagree.
import { useCallback, useState } from 'react';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount, selectOutboxForNarrow } from '../../store';
import { dmNarrow, topicNarrow } from '../../../shared/narrow';
import { navigate } from '../../store/ui-store';
import type { Destination } from './drafts';

export function useSentElsewhere(viewNarrowKey: string | undefined) {
  const store = useChatStoreApi();
  // Kept with the view it was made in: another view drops it (the notice spoke of the previous one).
  const [sent, setSent] = useState<{ viewKey: string; place: Destination } | null>(null);
  /** After the local echo is added: note where it went when the view does not show it. */
  const noteSent = useCallback(
    (localId: string, destination: Destination) => {
      if (viewNarrowKey === undefined) return;
      const shown = selectOutboxForNarrow(
        selectActiveAccount(store.getState()),
        viewNarrowKey,
      ).some((entry) => entry.localId === localId);
      setSent(shown ? null : { viewKey: viewNarrowKey, place: destination });
    },
    [store, viewNarrowKey],
  );
  const dismiss = useCallback(() => setSent(null), []);
  const place = sent && sent.viewKey === viewNarrowKey ? sent.place : null;
  return { place, noteSent, dismiss };
}

export function SentElsewhere({ place, onDismiss }: { place: Destination; onDismiss: () => void }) {
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId);
  // The other people of a direct message; yourself only for the conversation with yourself.
  const others = place.type === 'private' ? place.to.filter((id) => id !== selfUserId) : [];
  const dmIds = place.type === 'private' && others.length === 0 ? place.to : others;
  const label = useChatStore((s) => {
    const account = selectActiveAccount(s);
    if (place.type === 'stream') {
      const channel = account?.channels.channels.get(place.streamId)?.name ?? 'unknown channel';
      return `#${channel} > ${place.topic || '(no topic)'}`;
    }
    return dmIds.map((id) => account?.users.users.get(id)?.full_name ?? 'Unknown user').join(', ');
  });
  return (
    <div className="sent-elsewhere" role="status">
      <span className="sent-elsewhere-text">
        Sent! Your message is outside your current view.{' '}
        <button
          type="button"
          className="link"
          onClick={() => {
            onDismiss();
            navigate({
              kind: 'narrow',
              narrow:
                place.type === 'stream'
                  ? topicNarrow(place.streamId, place.topic)
                  : dmNarrow(dmIds),
            });
          }}
        >
          Go to {label}
        </button>
      </span>
      <button type="button" className="icon" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
