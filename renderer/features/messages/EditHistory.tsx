// A message's edit history, opened from its "(edited)" or "(moved)" marker: every version from the
// server's message history (fetched through main with react-query, not the message's edit_history,
// which the server may leave out), each with its content, channel and topic, who made it and when.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MessageWithFlags } from '../../../shared/api/types';
import { useChatStore } from '../../store/hooks';
import type { AccountState } from '../../store';
import { sanitizeMessageHtml } from '../../lib/sanitize';
import { formatDateTime } from '../../lib/format';
import { api, errorText } from '../../bridge/api';
import { userName } from './narrow-info';
import { handleContentClick, handleContentKeyDown } from './content-controls';
import { decorateMessageHtml, localizeTimes } from './rich-content';
import { historyVersions, type MessageVersion } from './history-versions';
import { markHtmlDifferences } from '../../../shared/diff/word-diff';

const KIND_LABEL: Record<MessageVersion['kind'], string> = {
  original: 'Original',
  edited: 'Edited',
  moved: 'Moved',
  'edited and moved': 'Edited and moved',
};

function channelName(account: AccountState | undefined, streamId: number): string {
  return account?.channels.channels.get(streamId)?.name ?? `channel ${streamId}`;
}

export function EditHistory({
  message,
  accountId,
}: {
  message: MessageWithFlags;
  accountId: string;
}) {
  const account = useChatStore((s) => s.accounts[accountId]);
  // A later edit or move changes the key, so an open view refetches and shows it.
  const history = useQuery({
    queryKey: [
      'message-history',
      accountId,
      message.id,
      message.last_edit_timestamp ?? 0,
      message.last_moved_timestamp ?? 0,
    ],
    queryFn: () => api().getMessageHistory({ accountId, messageId: message.id }),
    staleTime: Infinity,
    // Main already retried what a network failure can fix; the server's refusal (history hidden
    // by the realm, a message no longer visible) will not change on a second try.
    retry: false,
  });
  const currentStreamId = message.type === 'stream' ? message.stream_id : undefined;
  const twentyFourHour = !!account?.settings.user.twenty_four_hour_time;
  const versions = useMemo(
    () =>
      history.data
        ? historyVersions(history.data.message_history, currentStreamId).map((version) => ({
            ...version,
            // An edit shows what it changed, as the public web app does: added words marked,
            // removed ones struck out (diffed before sanitizing; the result is sanitized whole).
            html: localizeTimes(
              decorateMessageHtml(
                sanitizeMessageHtml(
                  version.prevRenderedContent === undefined
                    ? version.renderedContent
                    : markHtmlDifferences(version.prevRenderedContent, version.renderedContent),
                  accountId,
                  { diffMarks: true },
                ),
              ),
              twentyFourHour,
            ),
          }))
        : [],
    [history.data, currentStreamId, accountId, twentyFourHour],
  );

  return (
    <section className="edit-history" aria-label="Edit history">
      {history.isPending ? <p role="status">Loading the edit history…</p> : null}
      {history.isError ? (
        <p role="alert" className="error">
          Could not load the edit history: {errorText(history.error)}
        </p>
      ) : null}
      {versions.length > 0 ? (
        <ol>
          {versions.map((version, i) => {
            const who = version.userId === null ? 'unknown' : userName(account, version.userId);
            return (
              <li
                key={i}
                aria-label={`${KIND_LABEL[version.kind]} ${formatDateTime(version.timestamp, twentyFourHour)}`}
              >
                <div className="version-meta">
                  <strong>{KIND_LABEL[version.kind]}</strong>{' '}
                  {formatDateTime(version.timestamp, twentyFourHour)} by {who}
                </div>
                {version.streamId !== undefined ? (
                  <div className="version-place">
                    #{channelName(account, version.streamId)} › {version.topic || '(no topic)'}
                  </div>
                ) : null}
                {version.prevStreamId !== undefined && version.streamId !== undefined ? (
                  <div className="version-change">
                    Moved from <del>#{channelName(account, version.prevStreamId)}</del> to{' '}
                    <ins>#{channelName(account, version.streamId)}</ins>
                  </div>
                ) : null}
                {version.prevTopic !== undefined ? (
                  <div className="version-change">
                    Topic changed from <del>{version.prevTopic || '(no topic)'}</del> to{' '}
                    <ins>{version.topic || '(no topic)'}</ins>
                  </div>
                ) : null}
                <div
                  className="content"
                  data-account-id={accountId}
                  // Links as in the message itself: narrow links in the app, uploads through main.
                  onClick={handleContentClick}
                  onKeyDown={handleContentKeyDown}
                  // Sanitized above by DOMPurify (lib/sanitize.ts).
                  dangerouslySetInnerHTML={{ __html: version.html }}
                />
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}
