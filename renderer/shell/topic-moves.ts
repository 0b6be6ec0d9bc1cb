// A topic moved while it is on screen (renamed, resolved, unresolved, moved to another channel): as
// in the public web app, the open view follows the messages to their new conversation instead of
// staying on the emptied one, and the sidebar's topic list from the server drops the old name.
import type { QueryClient } from '@tanstack/react-query';
import type { ServerEvent, UpdateMessageEvent } from '../../shared/api/events';
import { topicNarrow } from '../../shared/narrow';
import { selectActiveAccount, type ChatStore } from '../store';
import { isOpenTopic, refreshChannelTopics } from '../features/topics/topic-actions';
import { replaceRoute, uiStore } from '../store/ui-store';

function isTopicMove(ev: ServerEvent): ev is UpdateMessageEvent & { stream_id: number } {
  return (
    ev.type === 'update_message' &&
    ev.stream_id !== undefined &&
    ev.orig_subject !== undefined &&
    ((ev.subject !== undefined && ev.subject !== ev.orig_subject) ||
      (ev.new_stream_id !== undefined && ev.new_stream_id !== ev.stream_id))
  );
}

export function followTopicMoves(
  accountId: string,
  events: readonly ServerEvent[],
  queryClient: QueryClient,
  store: ChatStore,
): void {
  for (const ev of events) {
    if (!isTopicMove(ev)) continue;
    // Every message of the topic moved: the old name is gone (the web app drops it at once too).
    void refreshChannelTopics(
      queryClient,
      accountId,
      ev.stream_id,
      ev.propagate_mode === 'change_all' ? ev.orig_subject : undefined,
    );
    followIntoNewTopic(accountId, ev, store);
  }
}

/**
 * The web app's rule: a move of the rest of the topic (or all of it) takes the reader along when
 * the open view is that topic and the selected message, if any, is among those moved.
 */
function followIntoNewTopic(
  accountId: string,
  ev: UpdateMessageEvent & { stream_id: number },
  store: ChatStore,
): void {
  if (ev.propagate_mode !== 'change_all' && ev.propagate_mode !== 'change_later') return;
  if (store.getState().activeAccountId !== accountId) return;
  const { route, selectedMessageId } = uiStore.getState();
  if (route.kind !== 'narrow') return;
  if (
    !isOpenTopic(
      route.narrow,
      selectActiveAccount(store.getState()),
      ev.stream_id,
      ev.orig_subject!,
    )
  )
    return;
  if (selectedMessageId !== null && !ev.message_ids.includes(selectedMessageId)) return;
  const narrow = topicNarrow(ev.new_stream_id ?? ev.stream_id, ev.subject ?? ev.orig_subject!);
  replaceRoute({ kind: 'narrow', narrow, anchor: selectedMessageId ?? ev.message_id });
}
