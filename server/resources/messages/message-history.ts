// GET /messages/{message_id}/history: the message's states, oldest first (the public API's
// message_history). The first snapshot is the message as sent (user_id = sender); each later one is
// the message right after an edit or move, by its editor, with prev_content /
// prev_rendered_content (content edits), prev_topic (topic changes) and prev_stream + stream
// (channel moves). Built from messages.edit_history (newest first, as PATCH records it).
//
// realm_message_edit_history_visibility_policy: "none" refuses the request; "moves" keeps only
// move snapshots and shows every snapshot with the current content (earlier content stays hidden).
// content_html_diff is not produced (clients diff themselves).
import { parseJson } from '../../db';
import { badRequest } from '../../http/errors';
import { p } from '../../http/params';
import type { ResourceModule } from '../module';
import type { MessageHistorySnapshot } from '../../../shared/api/endpoints';
import { realmSetting } from '../realm/realm-settings';
import { accessibleMessage, type EditHistoryEntry, type MessageRow } from './messages-store';

/** Walks the newest-first entries back from the current state; returns oldest first. */
export function messageHistory(
  message: MessageRow,
  entries: readonly EditHistoryEntry[],
  policy: 'all' | 'moves',
): MessageHistorySnapshot[] {
  let content = message.content;
  let rendered = message.rendered_content;
  let topic = message.topic;
  const snapshots: MessageHistorySnapshot[] = [];
  for (const entry of entries) {
    const isMove = entry.prev_topic !== undefined || entry.prev_stream !== undefined;
    const snapshot: MessageHistorySnapshot = {
      topic,
      content,
      rendered_content: rendered,
      timestamp: entry.timestamp,
      user_id: entry.user_id,
    };
    if (entry.prev_topic !== undefined) {
      snapshot.prev_topic = entry.prev_topic;
      topic = entry.prev_topic;
    }
    if (entry.prev_stream !== undefined) {
      snapshot.prev_stream = entry.prev_stream;
      snapshot.stream = entry.stream;
    }
    if (policy === 'all' && entry.prev_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content ?? '';
      content = entry.prev_content;
      rendered = entry.prev_rendered_content ?? '';
    }
    if (policy === 'all' || isMove) snapshots.push(snapshot);
  }
  snapshots.push({
    topic,
    content,
    rendered_content: rendered,
    timestamp: message.timestamp,
    user_id: message.sender_id,
  });
  return snapshots.reverse();
}

export const messageHistoryResource: ResourceModule = {
  name: 'message-history',
  routes(api, ctx) {
    api.get(
      '/messages/:message_id/history',
      { ids: ['message_id'], params: { allow_empty_topic_name: p.bool().default(false) } },
      ({ user, ids, params }) => {
        const policy = realmSetting<string>(
          ctx.db,
          'message_edit_history_visibility_policy',
          'all',
        );
        if (policy === 'none') {
          throw badRequest('Message edit history is disabled in this organization');
        }
        const message = accessibleMessage(ctx.db, user, ids.message_id);
        if (!message) throw badRequest('Invalid message(s)');
        const entries = parseJson<EditHistoryEntry[]>(message.edit_history, []);
        const history = messageHistory(message, entries, policy === 'moves' ? 'moves' : 'all');
        if (message.type === 'stream' && !params.allow_empty_topic_name) {
          const display = realmSetting(ctx.db, 'empty_topic_display_name', 'general chat');
          for (const snapshot of history) {
            if (snapshot.topic === '') snapshot.topic = display;
            if (snapshot.prev_topic === '') snapshot.prev_topic = display;
          }
        }
        return { message_history: history };
      },
    );
  },
};
