// The versions of a message, as the edit history view shows them, from the server's message
// history (GET /messages/{id}/history, oldest first). The server names a channel only on the
// versions made by a channel move, so each version's channel is carried forward here from the one
// the message was sent to.
import type { MessageHistorySnapshot } from '../../../shared/api/endpoints';

export type VersionKind = 'original' | 'edited' | 'moved' | 'edited and moved';

export interface MessageVersion {
  kind: VersionKind;
  /** UNIX seconds: when the message was sent (original) or this edit was made. */
  timestamp: number;
  /** Who sent (original) or edited; null for edits too old to have an author. */
  userId: number | null;
  /** The channel the message was in after this change; undefined for direct messages. */
  streamId: number | undefined;
  topic: string;
  /** Server-rendered HTML of this version (not yet sanitized). */
  renderedContent: string;
  /** The HTML this edit replaced (not yet sanitized); set only when the content changed. */
  prevRenderedContent?: string;
  contentChanged: boolean;
  prevTopic?: string;
  prevStreamId?: number;
}

/**
 * @param snapshots the server's history, oldest first
 * @param currentStreamId the message's channel now (undefined for a direct message)
 */
export function historyVersions(
  snapshots: readonly MessageHistorySnapshot[],
  currentStreamId: number | undefined,
): MessageVersion[] {
  // The channel it was sent to: before its first channel move, else where it still is.
  let streamId = snapshots.find((s) => s.prev_stream !== undefined)?.prev_stream ?? currentStreamId;
  return snapshots.map((snapshot, index) => {
    if (snapshot.stream !== undefined) streamId = snapshot.stream;
    const contentChanged = snapshot.prev_content !== undefined;
    const moved = snapshot.prev_topic !== undefined || snapshot.prev_stream !== undefined;
    const kind: VersionKind =
      index === 0
        ? 'original'
        : contentChanged && moved
          ? 'edited and moved'
          : moved
            ? 'moved'
            : 'edited';
    return {
      kind,
      timestamp: snapshot.timestamp,
      userId: snapshot.user_id,
      streamId,
      topic: snapshot.topic,
      renderedContent: snapshot.rendered_content,
      prevRenderedContent: contentChanged
        ? (snapshot.prev_rendered_content ?? snapshots[index - 1]?.rendered_content)
        : undefined,
      contentChanged,
      prevTopic: snapshot.prev_topic,
      prevStreamId: snapshot.prev_stream,
    };
  });
}
