// Reminders, listed below the scheduled messages (where the public web app keeps them, beside its
// scheduled messages): each with its time and the message it points to, a new time or deleted.
// The list follows the server's `reminders` events (store/slices/reminders.ts), so one set or
// deleted elsewhere (another device, the API) appears or goes at once; a server whose snapshot has
// no reminders is asked (GET /reminders, FL399) when the list is shown and after every reconnect.
// The public API has no reminder edit, so a new time is a new reminder about the same message, then
// the old one deleted.
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Reminder } from '../../../shared/api/types';
import { dmNarrow, topicNarrow } from '../../../shared/narrow';
import { useAccountNames, useChatStore, useTwentyFourHour } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { remindersInOrder } from '../../store/slices/reminders';
import { api, errorText } from '../../bridge/api';
import { navigate } from '../../store/ui-store';
import { formatDateTime } from '../../lib/format';
import { userName } from '../messages/narrow-info';
import { messageBodyHtml } from '../messages/rich-content';
import { handleContentClick, handleContentKeyDown } from '../messages/content-controls';
import { EditScheduled } from './EditScheduled';

export const remindersQueryKey = (accountId: string) => ['reminders', accountId];

/** Message reminders came with feature level 381; listing them (and their events) with 399. */
const SET_REMINDERS_LEVEL = 381;
const LIST_REMINDERS_LEVEL = 399;

/** The pending reminders: the store's, kept by events, else the server's answer. */
function usePendingReminders(accountId: string) {
  const live = useChatStore((s) => s.accounts[accountId]?.reminders);
  const featureLevel = useChatStore((s) => s.accounts[accountId]?.settings.featureLevel ?? 0);
  // A new snapshot (a reconnect) may have missed changes: the key changes with it.
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const fetched = useQuery({
    queryKey: [...remindersQueryKey(accountId), generation],
    queryFn: () => api().getReminders({ accountId }),
    enabled: !live?.byId && featureLevel >= LIST_REMINDERS_LEVEL,
    retry: false,
  });
  const list = useMemo(
    () => remindersInOrder(live?.byId ? live.byId.values() : (fetched.data?.reminders ?? [])),
    [live, fetched.data],
  );
  if (live?.byId) return { list, pending: false, error: null, loaded: true, listable: true };
  return {
    // Older servers have no GET /reminders (asking gets a 404); below 381 no reminders at all.
    listable: featureLevel >= LIST_REMINDERS_LEVEL,
    supported: featureLevel >= SET_REMINDERS_LEVEL,
    list,
    pending: fetched.isPending,
    error: fetched.isError ? fetched.error : null,
    loaded: fetched.isSuccess,
  };
}

export function Reminders({ accountId }: { accountId: string }) {
  const reminders = usePendingReminders(accountId);
  const list = reminders.list;
  if (!reminders.listable && !reminders.supported) return null;
  if (!reminders.listable)
    return (
      <section className="reminders" aria-label="Reminders">
        <h2>Reminders</h2>
        <p className="placeholder">
          This server cannot list reminders. Each one arrives as a direct message from its
          notification bot when it is due.
        </p>
      </section>
    );
  return (
    <section className="reminders" aria-label="Reminders">
      <h2>Reminders</h2>
      {reminders.pending ? <p role="status">Loading reminders…</p> : null}
      {reminders.error ? (
        <p role="alert" className="error">
          Could not load reminders: {errorText(reminders.error)}
        </p>
      ) : null}
      {reminders.loaded && list.length === 0 ? (
        <>
          <p>No reminders.</p>
          <p className="muted">
            To be reminded of a message, choose “Remind me about this” in its menu.
          </p>
        </>
      ) : null}
      <ul>
        {list.map((r) => (
          <ReminderItem key={r.reminder_id} accountId={accountId} reminder={r} />
        ))}
      </ul>
    </section>
  );
}

/** Where the reminded message is, when this client has it: a link there, at that message. */
function useTargetPlace(reminder: Reminder): { title: string; go: () => void } | null {
  const account = useAccountNames();
  const target = useChatStore((s) =>
    selectActiveAccount(s)?.messages.byId.get(reminder.reminder_target_message_id),
  );
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId);
  if (!target) return null;
  const anchor = target.id;
  if (target.type === 'stream') {
    const channel = account?.channels.channels.get(target.stream_id)?.name ?? target.stream_id;
    return {
      title: `#${channel} > ${target.subject}`,
      go: () =>
        navigate({ kind: 'narrow', narrow: topicNarrow(target.stream_id, target.subject), anchor }),
    };
  }
  const people = Array.isArray(target.display_recipient) ? target.display_recipient : [];
  const others = people.map((p) => p.id).filter((id) => id !== selfUserId);
  const ids = others.length > 0 ? others : people.map((p) => p.id);
  return {
    title: ids.map((id) => userName(account, id)).join(', '),
    go: () => navigate({ kind: 'narrow', narrow: dmNarrow(ids), anchor }),
  };
}

function ReminderItem({ accountId, reminder }: { accountId: string; reminder: Reminder }) {
  const queryClient = useQueryClient();
  const twentyFourHour = useTwentyFourHour();
  const place = useTargetPlace(reminder);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const when = formatDateTime(reminder.scheduled_delivery_timestamp, twentyFourHour);
  const run = (work: () => Promise<unknown>, after?: () => void) => {
    setError(null);
    work()
      .then(after)
      .catch((e: unknown) => setError(errorText(e)))
      .finally(
        () => void queryClient.invalidateQueries({ queryKey: remindersQueryKey(accountId) }),
      );
  };
  const remove = () => api().deleteReminder({ accountId, reminderId: reminder.reminder_id });
  return (
    <li data-testid="reminder" className={reminder.failed ? 'failed' : undefined}>
      <div className="scheduled-head">
        {place ? (
          <button type="button" className="link" onClick={place.go}>
            {place.title}
          </button>
        ) : (
          <span>Reminder</span>
        )}
        <time dateTime={new Date(reminder.scheduled_delivery_timestamp * 1000).toISOString()}>
          {when}
        </time>
        {reminder.failed ? <span className="badge error">Not sent</span> : null}
      </div>
      <div
        className="content draft-content"
        onClick={handleContentClick}
        onKeyDown={handleContentKeyDown}
        // The server's rendering, sanitized by DOMPurify (lib/sanitize.ts) as message rows are.
        dangerouslySetInnerHTML={{ __html: messageBodyHtml(reminder.rendered_content, accountId) }}
      />
      {editing ? (
        <EditScheduled
          label="Change reminder time"
          timeLabel="Remind at"
          at={reminder.scheduled_delivery_timestamp}
          onCancel={() => setEditing(false)}
          onSave={(_content, deliverAt) =>
            run(
              async () => {
                await api().createReminder({
                  accountId,
                  messageId: reminder.reminder_target_message_id,
                  deliverAt,
                });
                await remove();
              },
              () => setEditing(false),
            )
          }
        />
      ) : (
        <div className="scheduled-actions">
          <button type="button" onClick={() => setEditing(true)}>
            Change time
          </button>
          <button
            type="button"
            aria-label={`Delete reminder of ${when}`}
            onClick={() => run(remove)}
          >
            Delete
          </button>
        </div>
      )}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </li>
  );
}
