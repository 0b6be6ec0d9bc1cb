// The desktop-notification decision table: whether a new message pops up a notification and/or
// plays a sound, and why, decided from the message's flags, its channel subscription's overrides,
// the user's settings, topic visibility, muted users and what the person is reading, the way the
// public web app decides (its message_is_notifiable, should_send_desktop_notification and
// should_send_audible_notification rules). Pure: the renderer gathers the inputs from its store.
import type { Message, MessageFlag, VisibilityPolicy } from '../api/types';
import { canonicalOperator, type NarrowTerm } from '../narrow';

/** The user settings the decision reads (a subset of register's user_settings). */
export interface NotificationSettings {
  enable_desktop_notifications?: boolean;
  enable_sounds?: boolean;
  enable_stream_desktop_notifications?: boolean;
  enable_stream_audible_notifications?: boolean;
  enable_followed_topic_desktop_notifications?: boolean;
  enable_followed_topic_audible_notifications?: boolean;
  enable_followed_topic_wildcard_mentions_notify?: boolean;
  wildcard_mentions_notify?: boolean;
  pm_content_in_desktop_notifications?: boolean;
  notification_sound?: string;
}

/** A subscription's personal notification overrides; null inherits the user's setting. */
export interface SubscriptionNotificationSettings {
  is_muted?: boolean;
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
  wildcard_mentions_notify?: boolean | null;
}

/** Where a notification leads when clicked. */
export type NotificationTarget =
  | { kind: 'topic'; streamId: number; topic: string; messageId: number }
  | { kind: 'dm'; userIds: number[]; messageId: number }
  | { kind: 'none' };

/** What the person is looking at in the account the message belongs to. */
export interface NotificationView {
  /** The app's window has the focus (and is visible). */
  focused: boolean;
  /** The open message view of this account; null when another account or a non-message screen is shown. */
  narrow: readonly NarrowTerm[] | null;
}

export interface NotificationInput {
  message: Message;
  flags: readonly MessageFlag[];
  /** The message as plain text (the renderer turns the rendered HTML into text). */
  contentText: string;
  /** The message holds an image or an uploaded file (shown as "(attached file)" when it has no text). */
  hasAttachment: boolean;
  selfUserId: number;
  settings: NotificationSettings;
  /** The channel's subscription; undefined when not subscribed (or a direct message). */
  subscription: SubscriptionNotificationSettings | undefined;
  /** The channel's current name (stream messages). */
  channelName?: string;
  /** The topic's visibility policy: 0 inherit, 1 muted, 2 unmuted, 3 followed. */
  topicPolicy: VisibilityPolicy;
  senderMuted: boolean;
  view: NotificationView;
  /** The realm's name for the empty topic ("general chat"). */
  emptyTopicName?: string;
  /** Names the account when several are signed in; null with one. */
  accountLabel?: string | null;
}

export type SkipReason =
  | 'own-message'
  | 'already-read'
  | 'sender-muted'
  | 'reading-conversation'
  | 'channel-muted'
  | 'topic-muted'
  | 'settings-off';

export type NotifyReason =
  | 'direct-message'
  | 'mention'
  | 'alert-word'
  | 'wildcard-mention'
  | 'followed-topic'
  | 'channel-setting'
  | 'test';

export interface NotificationDecision {
  /** Show a desktop notification. */
  desktop: boolean;
  /** The sound to play (the user's notification_sound), or null for silence. */
  sound: string | null;
  reason: SkipReason | NotifyReason;
  title: string;
  body: string;
  /** Stable per message: a notification asked for twice (two tabs) shows once. */
  tag: string;
  target: NotificationTarget;
}

export const DEFAULT_NOTIFICATION_SOUND = 'zulip';

const WILDCARD_FLAGS: readonly MessageFlag[] = [
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'wildcard_mentioned',
];

/** Which kinds of notice a message qualifies for, before the per-medium settings are applied. */
interface Qualities {
  direct: boolean;
  mention: boolean;
  alert: boolean;
  wildcard: boolean;
  followed: boolean;
}

function qualities(input: NotificationInput): Qualities {
  const { message, flags } = input;
  return {
    direct: message.type === 'private',
    mention: flags.includes('mentioned'),
    // An alert word in one's own message never alerts (the public app's alert_words.notifies).
    alert: flags.includes('has_alert_word') && message.sender_id !== input.selfUserId,
    wildcard: flags.some((f) => WILDCARD_FLAGS.includes(f)),
    followed: message.type === 'stream' && input.topicPolicy === 3,
  };
}

/** The subscription's own value for a setting, else the user's default; never for unsubscribed channels. */
function channelReceives(
  input: NotificationInput,
  override: boolean | null | undefined,
  userDefault: boolean | undefined,
): boolean {
  if (input.message.type !== 'stream' || !input.subscription) return false;
  return override ?? userDefault ?? false;
}

/**
 * Why the message may not notify at all, whatever the settings say: null when it may. Direct
 * @-mentions and followed topics override channel and topic muting; wildcard mentions do not.
 */
function skipReason(input: NotificationInput, q: Qualities): SkipReason | null {
  const { message } = input;
  if (message.sender_id === input.selfUserId) return 'own-message';
  if (input.flags.includes('read')) return 'already-read';
  if (input.senderMuted) return 'sender-muted';
  if (input.view.focused && viewShowsConversation(input)) return 'reading-conversation';
  if (q.mention || q.followed || message.type !== 'stream') return null;
  if (input.subscription?.is_muted && input.topicPolicy !== 2) return 'channel-muted';
  if (input.topicPolicy === 1) return 'topic-muted';
  return null;
}

/**
 * The reason a medium (desktop popup or sound) fires, or null. `channelOn` and `followedOn` are the
 * medium's channel and followed-topic settings; `personalOn` gates direct messages, mentions and
 * alert words (enable_desktop_notifications or enable_sounds).
 */
function mediumReason(
  input: NotificationInput,
  q: Qualities,
  channelOn: boolean,
  followedOn: boolean,
  personalOn: boolean,
): NotifyReason | null {
  const { settings, subscription } = input;
  const personal = (): NotifyReason | null => {
    if (!personalOn) return null;
    if (q.direct) return 'direct-message';
    if (q.mention) return 'mention';
    if (q.alert) return 'alert-word';
    if (!q.wildcard) return null;
    if (
      channelReceives(
        input,
        subscription?.wildcard_mentions_notify,
        settings.wildcard_mentions_notify,
      )
    )
      return 'wildcard-mention';
    if (q.followed && (settings.enable_followed_topic_wildcard_mentions_notify ?? true))
      return 'wildcard-mention';
    return null;
  };
  const fromPersonal = personal();
  if (fromPersonal) return fromPersonal;
  if (q.followed && followedOn) return 'followed-topic';
  if (channelOn) return 'channel-setting';
  return null;
}

export function decideNotification(input: NotificationInput): NotificationDecision {
  const { settings, subscription } = input;
  const q = qualities(input);
  const base = {
    title: notificationTitle(input),
    body: notificationBody(input),
    tag: `message-${input.message.id}`,
    target: notificationTarget(input),
  };
  const skip = skipReason(input, q);
  if (skip) return { ...base, desktop: false, sound: null, reason: skip };

  const desktopReason = mediumReason(
    input,
    q,
    channelReceives(
      input,
      subscription?.desktop_notifications,
      settings.enable_stream_desktop_notifications,
    ),
    settings.enable_followed_topic_desktop_notifications ?? true,
    settings.enable_desktop_notifications ?? true,
  );
  const soundName = settings.notification_sound ?? DEFAULT_NOTIFICATION_SOUND;
  const soundReason =
    soundName === 'none'
      ? null
      : mediumReason(
          input,
          q,
          channelReceives(
            input,
            subscription?.audible_notifications,
            settings.enable_stream_audible_notifications,
          ),
          settings.enable_followed_topic_audible_notifications ?? true,
          settings.enable_sounds ?? true,
        );
  return {
    ...base,
    desktop: desktopReason !== null,
    sound: soundReason ? soundName : null,
    reason: desktopReason ?? soundReason ?? 'settings-off',
  };
}

/**
 * The "Send a test notification" button: always shown (as the public app does), with a sound when
 * sounds are on and a sound is chosen. Its body follows pm_content_in_desktop_notifications like a
 * direct message's.
 */
export function decideTestNotification(
  settings: NotificationSettings,
  accountLabel: string | null = null,
): NotificationDecision {
  const sound = settings.notification_sound ?? DEFAULT_NOTIFICATION_SOUND;
  const sender = 'Notification Bot';
  return {
    desktop: true,
    sound: settings.enable_sounds !== false && sound !== 'none' ? sound : null,
    reason: 'test',
    title: withAccount(sender, accountLabel),
    body:
      settings.pm_content_in_desktop_notifications === false
        ? `New direct message from ${sender}`
        : 'This is a test notification from Tributary.',
    tag: 'test-notification',
    target: { kind: 'none' },
  };
}

function withAccount(title: string, accountLabel: string | null | undefined): string {
  return accountLabel ? `${title} · ${accountLabel}` : title;
}

/** Longest recipient list spelled out in a group DM's title before it is summarised. */
const TITLE_NAMES_LIMIT = 50;

function notificationTitle(input: NotificationInput): string {
  const { message } = input;
  const sender = message.sender_full_name;
  let title: string;
  if (message.type === 'stream') {
    const topic =
      message.subject === '' ? (input.emptyTopicName ?? 'general chat') : message.subject;
    title = `${sender} (#${input.channelName ?? message.display_recipient} > ${topic})`;
  } else {
    const others = message.display_recipient.filter(
      (r) => r.id !== message.sender_id && r.id !== input.selfUserId,
    );
    if (others.length === 0) title = `${sender} (to you)`;
    else {
      const names = listNames(others.map((r) => r.full_name));
      title =
        sender.length + names.length > TITLE_NAMES_LIMIT
          ? `${sender} (to you and ${others.length} more)`
          : `${sender} (to you and ${names})`;
    }
  }
  return withAccount(title, input.accountLabel);
}

/** "A", "A and B", "A, B, and C". */
function listNames(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')}, and ${names[names.length - 1]}`;
}

function notificationBody(input: NotificationInput): string {
  const { message } = input;
  if (message.type === 'private' && input.settings.pm_content_in_desktop_notifications === false)
    return `New direct message from ${message.sender_full_name}`;
  let text = input.contentText.trim();
  if (text === '' && input.hasAttachment) return '(attached file)';
  // "/me waves" reads "Olivia waves".
  if (message.is_me_message && text.startsWith('/me'))
    text = message.sender_full_name + text.slice(3);
  return text;
}

function notificationTarget(input: NotificationInput): NotificationTarget {
  const { message } = input;
  if (message.type === 'stream')
    return {
      kind: 'topic',
      streamId: message.stream_id,
      topic: message.subject,
      messageId: message.id,
    };
  return {
    kind: 'dm',
    userIds: dmOthers(input).sort((a, b) => a - b),
    messageId: message.id,
  };
}

/** A DM's participants other than the user (the user alone for the self-conversation). */
function dmOthers(input: NotificationInput): number[] {
  const { message } = input;
  if (message.type !== 'private') return [];
  const ids = message.display_recipient.map((r) => r.id);
  const others = ids.filter((id) => id !== input.selfUserId);
  return others.length === 0 ? [input.selfUserId] : others;
}

/** Terms that narrow within one conversation without leaving it (a link to a message in it). */
const WITHIN_CONVERSATION = new Set(['near', 'with', 'id']);

/**
 * Whether the open view is the message's conversation: its topic, its whole channel, or its DM
 * conversation. Views of several conversations (all messages, inbox, mentions, search) are not:
 * the message may be off screen there, as the public app's notifications assume.
 */
export function viewShowsConversation(input: NotificationInput): boolean {
  const narrow = input.view.narrow;
  if (!narrow || narrow.length === 0) return false;
  const { message } = input;
  let channelMatched = false;
  let topicMatched: boolean | null = null;
  let dmMatched = false;
  for (const term of narrow) {
    if (term.negated) return false;
    const operator = canonicalOperator(term.operator);
    if (WITHIN_CONVERSATION.has(operator)) continue;
    if (operator === 'channel' && message.type === 'stream') {
      channelMatched =
        term.operand === message.stream_id ||
        (typeof term.operand === 'string' &&
          term.operand.toLowerCase() ===
            (input.channelName ?? message.display_recipient).toLowerCase());
    } else if (operator === 'topic' && message.type === 'stream') {
      topicMatched =
        typeof term.operand === 'string' &&
        term.operand.toLowerCase() === message.subject.toLowerCase();
    } else if (operator === 'dm' && message.type === 'private') {
      dmMatched = sameDmParticipants(term.operand, input);
    } else return false;
  }
  if (message.type === 'stream') return channelMatched && topicMatched !== false;
  return dmMatched;
}

function sameDmParticipants(operand: NarrowTerm['operand'], input: NotificationInput): boolean {
  if (input.message.type !== 'private') return false;
  const others = dmOthers(input);
  const byEmail = new Map(
    input.message.display_recipient.map((r) => [r.email.toLowerCase(), r.id]),
  );
  const listed: Array<number | undefined> = Array.isArray(operand)
    ? operand.map((v) => (typeof v === 'number' ? v : byEmail.get(String(v).toLowerCase())))
    : typeof operand === 'string'
      ? operand.split(',').map((e) => byEmail.get(e.trim().toLowerCase()))
      : [operand as number];
  const wanted = new Set(listed.filter((id) => id !== input.selfUserId || others[0] === id));
  return wanted.size === others.length && others.every((id) => wanted.has(id));
}
