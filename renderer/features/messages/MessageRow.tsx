// One message in the list: recipient header when the conversation changes, sender line when the
// sender changes, the sanitized body, markers (edited, moved, starred), reactions and actions.
import { memo, useMemo, useState, type MouseEvent, type Ref } from 'react';
import {
  useChatStore,
  useChatStoreApi,
  useIsUserMuted,
  useMessage,
  useUser,
} from '../../store/hooks';
import type { User } from '../../../shared/api/types';
import { dayLabel, formatDateTime, formatTime, localDay } from '../../lib/format';
import { mediaUrl } from '../../bridge/media';
import { sameConversation } from './narrow-info';
import { RecipientHeader } from './RecipientHeader';
import { Reactions } from './Reactions';
import { MessageActions } from './MessageActions';
import { MessageEditor } from './MessageEditor';
import { toggleEditHistory, useUi } from '../../store/ui-store';
import { EditHistory } from './EditHistory';
import { handleContentClick, handleContentKeyDown } from './content-controls';
import { highlightAlertWords, messageBodyHtml } from './rich-content';
import { openUserPopover } from '../people/UserPopover';
import { withoutMeCommand } from './me-message';
import { withWidget } from './widgets/MessageWidget';
import { PresenceDot } from '../people/PresenceDot';
import { sanitizeMessageHtml } from '../../lib/sanitize';
import { isReplyClick, replyToClickedMessage } from './click-to-reply';
import { selectActiveAccount, type SearchMatch } from '../../store';
import { MeetingCards } from '../meetings/MeetingCards';
import { linkedUploadPaths, mayLinkMeeting } from '../meetings/meeting-links';

/** Flags of a message that mentions the reader: directly, through a group, or by a wildcard. */
const MENTION_FLAGS = new Set([
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
]);

/** Sender lines repeat after this gap even for the same sender. */
const GROUP_GAP_SECONDS = 5 * 60;

/** The line between two messages of one conversation sent on different days (the first message of
 * a conversation has the day in its recipient header instead). */
export function DateSeparator({ timestamp }: { timestamp: number }) {
  const label = dayLabel(timestamp);
  return (
    <div className="date-separator" role="separator" aria-label={label}>
      {/* A time element: the first screen relabels it by its date (renderer/first-screen.ts). */}
      <time aria-hidden="true" dateTime={new Date(timestamp * 1000).toISOString()}>
        {label}
      </time>
    </div>
  );
}

/** The sender's picture, or initials, as the row's gutter (a plain function: no component of its own
 * per row). Other lists of people pass their own class for its size. */
export function avatar(
  accountId: string,
  user: User | undefined,
  name: string,
  className = 'gutter avatar',
) {
  const src = avatarSource(accountId, user);
  if (src) return <img className={className} src={src} alt="" />;
  return (
    <span className={`${className} initials`} aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}

/** The media route's URL of a user's avatar, or null when it is not on the realm's server. */
export function avatarSource(accountId: string, user: User | undefined): string | null {
  return user?.avatar_url ? mediaUrl(accountId, user.avatar_url) : null;
}

/** What stands in for a missing avatar: the first letters of the first two words. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/** What a muted sender's message shows until it is revealed (the public web app's words). */
function MutedMessageNotice({ onReveal }: { onReveal: () => void }) {
  return (
    <div className="content muted-message">
      <p>
        This message was hidden because you have muted the sender.{' '}
        <button type="button" className="link" onClick={onReveal}>
          Click here to reveal.
        </button>
      </p>
    </div>
  );
}

interface RowProps {
  accountId: string;
  id: number;
  prevId: number | undefined;
  selected: boolean;
  /** The user's twenty_four_hour_time (read once by the list, not per row). */
  twentyFourHour?: boolean;
  /** The user's emojiset is text: custom emoji images show as their `:name:` too. */
  textEmoji?: boolean;
  /** Animated previews show still (web_animate_image_previews is not "always"). */
  stillImages?: boolean;
  /** Show a recipient header even when the previous message is in the same conversation. */
  forceHeader?: boolean;
  /** In a keyword search: the content and topic with the matched words marked. */
  searchMatch?: SearchMatch;
  /** The row's index in a virtualized list (data-index), and the list's measuring ref. */
  index?: number;
  measureRef?: Ref<HTMLDivElement>;
}

export const MessageRow = memo(function MessageRow({
  accountId,
  id,
  prevId,
  selected,
  twentyFourHour = false,
  textEmoji = false,
  stillImages = false,
  forceHeader,
  searchMatch,
  index,
  measureRef,
}: RowProps) {
  const message = useMessage(id);
  const prev = useMessage(prevId ?? -1);
  const sender = useUser(message?.sender_id ?? -1);
  const showHistory = useUi((s) => s.historyMessageId === id);
  const editing = useUi((s) => s.editingMessageId === id);
  // Read when a click replies (no subscription per row).
  const store = useChatStoreApi();
  // A muted sender's message is collapsed, as in the public web app, until revealed here.
  const senderMuted = useIsUserMuted(message?.sender_id ?? -1);
  const [revealed, setRevealed] = useState(false);
  // The action buttons mount once the row is pointed at, focused or selected, not with every row
  // of the first paint; once mounted they stay (an open menu survives the pointer leaving).
  const [actionsWanted, setActionsWanted] = useState(false);
  const wantActions = () => {
    if (!actionsWanted) setActionsWanted(true);
  };
  // By content, not by record: a record replaced for a flag or a reaction keeps its HTML. A search
  // shows the server's copy with the matched words marked (sanitized the same way).
  const content = searchMatch?.content ?? message?.content;
  const isMe = !!message?.is_me_message;
  // Only a message the server flagged reads the alert words (most rows subscribe to nothing).
  const alerted = !!message?.flags.includes('has_alert_word');
  const alertWords = useChatStore((s) =>
    alerted ? s.accounts[accountId]?.settings.alertWords : undefined,
  );
  const html = useMemo(() => {
    if (content === undefined) return '';
    let html = messageBodyHtml(content, accountId, { textEmoji, twentyFourHour, stillImages });
    if (alertWords?.length) html = highlightAlertWords(html, alertWords);
    // Shown after the sender's name, as an action.
    return isMe ? withoutMeCommand(html) : html;
  }, [content, accountId, isMe, twentyFourHour, textEmoji, stillImages, alertWords]);
  // Uploads of a message that links a `.json` file: it may be a meeting (its card asks main lazily).
  // From the message's own HTML, not a search's marked copy.
  const ownContent = message?.content;
  const meetingPaths = useMemo(
    () =>
      ownContent !== undefined && mayLinkMeeting(ownContent) ? linkedUploadPaths(ownContent) : null,
    [ownContent],
  );
  // Kept as an empty box while the message is missing, so that the list can still measure the row.
  if (!message) return <div ref={measureRef} data-index={index} className="message-row" />;
  const header = forceHeader || !prev || !sameConversation(prev, message);
  const newDay = !header && !!prev && localDay(prev.timestamp) !== localDay(message.timestamp);
  const grouped =
    !header &&
    !newDay &&
    prev !== undefined &&
    prev.sender_id === message.sender_id &&
    message.timestamp - prev.timestamp < GROUP_GAP_SECONDS;
  const unread = !message.flags.includes('read');
  const starred = message.flags.includes('starred');
  const mentioned = message.flags.some((f) => MENTION_FLAGS.has(f));
  const hidden = senderMuted && !revealed;
  const senderName = hidden ? 'Muted user' : (sender?.full_name ?? message.sender_full_name);
  const openProfile = (e: MouseEvent<HTMLElement>) =>
    openUserPopover(message.sender_id, e.currentTarget);
  const hasMarkers = !!(message.last_edit_timestamp || message.last_moved_timestamp || starred);
  // Beside the content when there is no sender line to carry them.
  const inlineMarkers = hasMarkers && (grouped || message.is_me_message);
  const contentBox = (
    <div
      className="content"
      data-account-id={accountId}
      onClick={handleContentClick}
      onKeyDown={handleContentKeyDown}
      // Sanitized above by DOMPurify (lib/sanitize.ts).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
  // A /poll or /todo message shows its widget in place of the text.
  const contentOrWidget = hidden ? (
    <MutedMessageNotice onReveal={() => setRevealed(true)} />
  ) : editing ? (
    <MessageEditor accountId={accountId} message={message} />
  ) : (
    withWidget(accountId, message, contentBox)
  );
  const markers = (
    <>
      {message.last_edit_timestamp ? (
        <button
          type="button"
          className="marker"
          title={`Edited ${formatDateTime(message.last_edit_timestamp, twentyFourHour)}`}
          onClick={() => toggleEditHistory(id)}
        >
          (edited)
        </button>
      ) : null}
      {message.last_moved_timestamp ? (
        <button
          type="button"
          className="marker"
          title={`Moved ${formatDateTime(message.last_moved_timestamp, twentyFourHour)}`}
          onClick={() => toggleEditHistory(id)}
        >
          (moved)
        </button>
      ) : null}
      {starred ? (
        <span className="marker star" role="img" aria-label="Starred">
          ★
        </span>
      ) : null}
    </>
  );
  return (
    <div
      ref={measureRef}
      data-index={index}
      className={`message-row${selected ? ' selected' : ''}${unread ? ' unread' : ''}${mentioned ? ' mentioned' : ''}`}
      data-message-id={message.id}
      data-testid="message"
      aria-selected={selected}
      role="listitem"
      onPointerEnter={wantActions}
      onFocus={wantActions}
    >
      {header ? (
        <RecipientHeader
          message={message}
          topicHtml={
            searchMatch?.subject === undefined
              ? undefined
              : sanitizeMessageHtml(searchMatch.subject, accountId)
          }
        />
      ) : null}
      {newDay ? <DateSeparator timestamp={message.timestamp} /> : null}
      <div
        className={`message${grouped ? ' grouped' : ''}${message.is_me_message ? ' me' : ''}`}
        onClick={(e) => {
          if (!hidden && !editing && isReplyClick(e))
            replyToClickedMessage(message, selectActiveAccount(store.getState())?.selfUserId ?? 0);
        }}
      >
        {grouped ? (
          <div className="gutter" />
        ) : (
          <span className="gutter avatar-with-presence">
            {hidden ? (
              <span className="gutter avatar initials muted-avatar" aria-hidden="true" />
            ) : (
              <>
                {avatar(accountId, sender, senderName)}
                <PresenceDot userId={message.sender_id} />
              </>
            )}
          </span>
        )}
        <div className="body">
          {grouped || message.is_me_message ? null : (
            <div className="sender-line">
              <button type="button" className="sender link" onClick={openProfile}>
                {senderName}
              </button>
              <time dateTime={new Date(message.timestamp * 1000).toISOString()}>
                {formatTime(message.timestamp, twentyFourHour)}
              </time>
              {markers}
            </div>
          )}
          {message.is_me_message || inlineMarkers ? (
            <div className="content-line">
              {message.is_me_message ? (
                <button type="button" className="sender link me-name" onClick={openProfile}>
                  {senderName}
                </button>
              ) : null}
              {contentOrWidget}
              {inlineMarkers ? <span className="inline-markers">{markers}</span> : null}
            </div>
          ) : (
            contentOrWidget
          )}
          {meetingPaths && meetingPaths.length > 0 && !hidden ? (
            <MeetingCards accountId={accountId} paths={meetingPaths} />
          ) : null}
          {showHistory ? <EditHistory message={message} accountId={accountId} /> : null}
          {/* Most rows have none: no component (and no store subscription) for those. */}
          {message.reactions.length > 0 && !hidden ? (
            <Reactions accountId={accountId} message={message} />
          ) : null}
        </div>
        {actionsWanted || selected ? (
          <MessageActions accountId={accountId} message={message} />
        ) : null}
      </div>
    </div>
  );
});
