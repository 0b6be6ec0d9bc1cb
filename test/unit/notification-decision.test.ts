// The desktop-notification decision table (shared/notifications/decide.ts), rule by rule: what
// notifies (DMs, personal/group/wildcard mentions, followed topics, channels with notifications on,
// alert words), what never does (muted channels, topics and users, one's own messages, read
// messages, the conversation being read in a focused window), the sound, and the title and body.
import { describe, expect, it } from 'vitest';
import type { ChannelMessage, DirectMessage, MessageFlag } from '../../shared/api/types';
import {
  decideNotification,
  decideTestNotification,
  type NotificationInput,
} from '../../shared/notifications/decide';
import { channelNarrow, dmNarrow, topicNarrow } from '../../shared/narrow';

const SELF = 10;
const OLIVIA = {
  id: 11,
  email: 'olivia@x.test',
  full_name: 'Olivia Owner',
  is_mirror_dummy: false,
};
const EMMA = { id: 12, email: 'emma@x.test', full_name: 'Emma Member', is_mirror_dummy: false };
const ME = { id: SELF, email: 'me@x.test', full_name: 'Me', is_mirror_dummy: false };

const base = {
  sender_id: OLIVIA.id,
  sender_email: OLIVIA.email,
  sender_full_name: OLIVIA.full_name,
  sender_realm_str: 'x',
  avatar_url: null,
  client: 'test',
  content: '<p>hello</p>',
  content_type: 'text/html' as const,
  recipient_id: 1,
  topic_links: [],
  timestamp: 1,
  is_me_message: false,
  reactions: [],
  submessages: [],
};

function channelMessage(over: Partial<ChannelMessage> = {}): ChannelMessage {
  return {
    ...base,
    id: 100,
    type: 'stream',
    stream_id: 5,
    display_recipient: 'general',
    subject: 'lunch',
    ...over,
  };
}

function directMessage(over: Partial<DirectMessage> = {}): DirectMessage {
  return {
    ...base,
    id: 101,
    type: 'private',
    subject: '',
    display_recipient: [ME, OLIVIA],
    ...over,
  };
}

/** Defaults: the server's default settings, subscribed and unmuted, not looking at anything. */
function input(over: Partial<NotificationInput> = {}): NotificationInput {
  return {
    message: channelMessage(),
    flags: [],
    contentText: 'hello',
    hasAttachment: false,
    selfUserId: SELF,
    settings: {
      enable_desktop_notifications: true,
      enable_sounds: true,
      enable_stream_desktop_notifications: false,
      enable_stream_audible_notifications: false,
      enable_followed_topic_desktop_notifications: true,
      enable_followed_topic_audible_notifications: true,
      enable_followed_topic_wildcard_mentions_notify: true,
      wildcard_mentions_notify: true,
      pm_content_in_desktop_notifications: true,
      notification_sound: 'zulip',
    },
    subscription: {
      is_muted: false,
      desktop_notifications: null,
      audible_notifications: null,
      wildcard_mentions_notify: null,
    },
    channelName: 'general',
    topicPolicy: 0,
    senderMuted: false,
    view: { focused: false, narrow: null },
    ...over,
  };
}

const flags = (...f: MessageFlag[]) => f;

describe('what notifies', () => {
  it('a direct message notifies, with the sound, by enable_desktop_notifications and enable_sounds', () => {
    const dm = input({ message: directMessage(), subscription: undefined });
    expect(decideNotification(dm)).toMatchObject({
      desktop: true,
      sound: 'zulip',
      reason: 'direct-message',
    });
    const off = { ...dm.settings, enable_desktop_notifications: false, enable_sounds: false };
    expect(decideNotification({ ...dm, settings: off })).toMatchObject({
      desktop: false,
      sound: null,
      reason: 'settings-off',
    });
    // Each medium has its own switch.
    expect(
      decideNotification({ ...dm, settings: { ...dm.settings, enable_sounds: false } }),
    ).toMatchObject({ desktop: true, sound: null });
  });

  it('a plain channel message does not notify by default', () => {
    expect(decideNotification(input())).toMatchObject({
      desktop: false,
      sound: null,
      reason: 'settings-off',
    });
  });

  it('personal and group mentions (the mentioned flag) notify', () => {
    expect(decideNotification(input({ flags: flags('mentioned') }))).toMatchObject({
      desktop: true,
      sound: 'zulip',
      reason: 'mention',
    });
  });

  it('wildcard mentions follow wildcard_mentions_notify, overridden per channel', () => {
    for (const flag of [
      'stream_wildcard_mentioned',
      'topic_wildcard_mentioned',
      'wildcard_mentioned',
    ] as const) {
      expect(decideNotification(input({ flags: [flag] }))).toMatchObject({
        desktop: true,
        reason: 'wildcard-mention',
      });
    }
    const userOff = input({ flags: flags('stream_wildcard_mentioned') });
    userOff.settings = { ...userOff.settings, wildcard_mentions_notify: false };
    expect(decideNotification(userOff)).toMatchObject({ desktop: false, reason: 'settings-off' });
    // The channel's own value wins over the user's either way.
    expect(
      decideNotification({
        ...userOff,
        subscription: { ...userOff.subscription, wildcard_mentions_notify: true },
      }),
    ).toMatchObject({ desktop: true, reason: 'wildcard-mention' });
    expect(
      decideNotification(
        input({
          flags: flags('stream_wildcard_mentioned'),
          subscription: { wildcard_mentions_notify: false },
        }),
      ),
    ).toMatchObject({ desktop: false });
  });

  it('wildcard mentions in a followed topic follow enable_followed_topic_wildcard_mentions_notify', () => {
    const followed = input({ flags: flags('topic_wildcard_mentioned'), topicPolicy: 3 });
    followed.settings = {
      ...followed.settings,
      wildcard_mentions_notify: false,
      enable_followed_topic_desktop_notifications: false,
      enable_followed_topic_audible_notifications: false,
    };
    expect(decideNotification(followed)).toMatchObject({
      desktop: true,
      reason: 'wildcard-mention',
    });
    followed.settings = {
      ...followed.settings,
      enable_followed_topic_wildcard_mentions_notify: false,
    };
    expect(decideNotification(followed)).toMatchObject({ desktop: false, sound: null });
  });

  it('followed topics notify by enable_followed_topic_desktop/audible_notifications', () => {
    const followed = input({ topicPolicy: 3 });
    expect(decideNotification(followed)).toMatchObject({
      desktop: true,
      sound: 'zulip',
      reason: 'followed-topic',
    });
    followed.settings = {
      ...followed.settings,
      enable_followed_topic_desktop_notifications: false,
      enable_followed_topic_audible_notifications: false,
    };
    expect(decideNotification(followed)).toMatchObject({ desktop: false, sound: null });
    // Not gated by enable_desktop_notifications, which is for DMs, mentions and alerts.
    const onlyFollowed = input({ topicPolicy: 3 });
    onlyFollowed.settings = { ...onlyFollowed.settings, enable_desktop_notifications: false };
    expect(decideNotification(onlyFollowed)).toMatchObject({ desktop: true });
  });

  it('channels notify by enable_stream_* notifications, overridden by the subscription', () => {
    const on = input();
    on.settings = {
      ...on.settings,
      enable_stream_desktop_notifications: true,
      enable_stream_audible_notifications: true,
    };
    expect(decideNotification(on)).toMatchObject({
      desktop: true,
      sound: 'zulip',
      reason: 'channel-setting',
    });
    expect(
      decideNotification({
        ...on,
        subscription: { desktop_notifications: false, audible_notifications: false },
      }),
    ).toMatchObject({ desktop: false, sound: null });
    expect(
      decideNotification(input({ subscription: { desktop_notifications: true } })),
    ).toMatchObject({ desktop: true, sound: null, reason: 'channel-setting' });
    expect(
      decideNotification(input({ subscription: { audible_notifications: true } })),
    ).toMatchObject({ desktop: false, sound: 'zulip', reason: 'channel-setting' });
  });

  it('a channel the user is not subscribed to never notifies by its settings', () => {
    const on = input({ subscription: undefined });
    on.settings = { ...on.settings, enable_stream_desktop_notifications: true };
    expect(decideNotification(on)).toMatchObject({ desktop: false });
  });

  it('alert words notify, never in one’s own message', () => {
    expect(decideNotification(input({ flags: flags('has_alert_word') }))).toMatchObject({
      desktop: true,
      reason: 'alert-word',
    });
    const off = input({ flags: flags('has_alert_word') });
    off.settings = { ...off.settings, enable_desktop_notifications: false, enable_sounds: false };
    expect(decideNotification(off)).toMatchObject({ desktop: false, sound: null });
  });
});

describe('what never notifies', () => {
  it('one’s own messages, even mentioning oneself or with an alert word', () => {
    const own = channelMessage({ sender_id: SELF, sender_full_name: 'Me' });
    expect(
      decideNotification(input({ message: own, flags: flags('mentioned', 'has_alert_word') })),
    ).toMatchObject({ desktop: false, sound: null, reason: 'own-message' });
  });

  it('messages already read', () => {
    expect(
      decideNotification(input({ message: directMessage(), flags: flags('read') })),
    ).toMatchObject({ desktop: false, reason: 'already-read' });
  });

  it('messages from muted users, even direct messages and mentions', () => {
    expect(
      decideNotification(
        input({ message: directMessage(), flags: flags('mentioned'), senderMuted: true }),
      ),
    ).toMatchObject({ desktop: false, sound: null, reason: 'sender-muted' });
  });

  it('muted channels, except direct mentions, followed and unmuted topics; wildcards stay muted', () => {
    const muted = { is_muted: true, desktop_notifications: true, audible_notifications: true };
    expect(decideNotification(input({ subscription: muted }))).toMatchObject({
      desktop: false,
      sound: null,
      reason: 'channel-muted',
    });
    expect(
      decideNotification(input({ subscription: muted, flags: flags('stream_wildcard_mentioned') })),
    ).toMatchObject({ desktop: false, reason: 'channel-muted' });
    expect(
      decideNotification(input({ subscription: muted, flags: flags('mentioned') })),
    ).toMatchObject({ desktop: true, reason: 'mention' });
    expect(decideNotification(input({ subscription: muted, topicPolicy: 3 }))).toMatchObject({
      desktop: true,
    });
    // An unmuted topic in a muted channel notifies by the channel's settings.
    expect(decideNotification(input({ subscription: muted, topicPolicy: 2 }))).toMatchObject({
      desktop: true,
      reason: 'channel-setting',
    });
  });

  it('muted topics, except direct mentions', () => {
    const loud = { desktop_notifications: true, audible_notifications: true };
    expect(decideNotification(input({ subscription: loud, topicPolicy: 1 }))).toMatchObject({
      desktop: false,
      reason: 'topic-muted',
    });
    expect(
      decideNotification(input({ topicPolicy: 1, flags: flags('has_alert_word') })),
    ).toMatchObject({ desktop: false, reason: 'topic-muted' });
    expect(decideNotification(input({ topicPolicy: 1, flags: flags('mentioned') }))).toMatchObject({
      desktop: true,
      reason: 'mention',
    });
  });

  it('the conversation being read in a focused window: its topic, its channel, its DM', () => {
    const mention = (narrow: NotificationInput['view']['narrow'], focused = true) =>
      decideNotification(input({ flags: flags('mentioned'), view: { focused, narrow } }));
    expect(mention(topicNarrow(5, 'Lunch'))).toMatchObject({
      desktop: false,
      sound: null,
      reason: 'reading-conversation',
    });
    expect(mention(channelNarrow(5))).toMatchObject({ reason: 'reading-conversation' });
    // By name, as a typed search names it.
    expect(
      mention([
        { operator: 'stream', operand: 'General' },
        { operator: 'topic', operand: 'lunch' },
      ]),
    ).toMatchObject({ reason: 'reading-conversation' });
    // Not focused, another topic, another channel, or a view of many conversations: it notifies.
    expect(mention(topicNarrow(5, 'lunch'), false)).toMatchObject({ desktop: true });
    expect(mention(topicNarrow(5, 'dinner'))).toMatchObject({ desktop: true });
    expect(mention(channelNarrow(6))).toMatchObject({ desktop: true });
    expect(mention([])).toMatchObject({ desktop: true });
    expect(mention(null)).toMatchObject({ desktop: true });
    expect(mention([{ operator: 'is', operand: 'mentioned' }])).toMatchObject({ desktop: true });

    const dm = (narrow: NotificationInput['view']['narrow']) =>
      decideNotification(
        input({
          message: directMessage(),
          subscription: undefined,
          view: { focused: true, narrow },
        }),
      );
    expect(dm(dmNarrow([OLIVIA.id]))).toMatchObject({ reason: 'reading-conversation' });
    expect(dm([{ operator: 'dm', operand: OLIVIA.email }])).toMatchObject({
      reason: 'reading-conversation',
    });
    expect(dm(dmNarrow([EMMA.id]))).toMatchObject({ desktop: true });
    expect(dm(dmNarrow([OLIVIA.id, EMMA.id]))).toMatchObject({ desktop: true });
  });
});

describe('sound', () => {
  it('plays notification_sound; "none" silences every notification', () => {
    const dm = input({ message: directMessage(), subscription: undefined });
    expect(
      decideNotification({ ...dm, settings: { ...dm.settings, notification_sound: 'ding' } }).sound,
    ).toBe('ding');
    expect(
      decideNotification({ ...dm, settings: { ...dm.settings, notification_sound: 'none' } }),
    ).toMatchObject({ desktop: true, sound: null });
  });

  it('defaults to "zulip" when the server does not say', () => {
    const dm = input({ message: directMessage(), subscription: undefined, settings: {} });
    expect(decideNotification(dm)).toMatchObject({ desktop: true, sound: 'zulip' });
  });
});

describe('title and body', () => {
  it('channel messages: sender (#channel > topic); the empty topic by the realm’s name', () => {
    expect(decideNotification(input({ flags: flags('mentioned') })).title).toBe(
      'Olivia Owner (#general > lunch)',
    );
    expect(
      decideNotification(
        input({ message: channelMessage({ subject: '' }), emptyTopicName: 'general chat' }),
      ).title,
    ).toBe('Olivia Owner (#general > general chat)');
  });

  it('direct messages: (to you), (to you and others), summarised when long', () => {
    const dm = (recipients: DirectMessage['display_recipient']) =>
      decideNotification(
        input({
          message: directMessage({ display_recipient: recipients }),
          subscription: undefined,
        }),
      ).title;
    expect(dm([ME, OLIVIA])).toBe('Olivia Owner (to you)');
    expect(dm([ME, OLIVIA, EMMA])).toBe('Olivia Owner (to you and Emma Member)');
    const many = [1, 2, 3, 4, 5].map((i) => ({
      ...EMMA,
      id: 20 + i,
      full_name: `Person with a long name ${i}`,
    }));
    expect(dm([ME, OLIVIA, ...many])).toBe('Olivia Owner (to you and 5 more)');
  });

  it('names the account when several are signed in', () => {
    expect(decideNotification(input({ accountLabel: 'Acme' })).title).toBe(
      'Olivia Owner (#general > lunch) · Acme',
    );
  });

  it('body is the text; DM content hidden by pm_content_in_desktop_notifications', () => {
    const dm = input({ message: directMessage(), subscription: undefined, contentText: 'secret' });
    expect(decideNotification(dm).body).toBe('secret');
    dm.settings = { ...dm.settings, pm_content_in_desktop_notifications: false };
    expect(decideNotification(dm).body).toBe('New direct message from Olivia Owner');
    // Channel messages always show their content.
    const channel = input({ contentText: 'public' });
    channel.settings = dm.settings;
    expect(decideNotification(channel).body).toBe('public');
  });

  it('an attachment alone reads (attached file); /me reads as the sender', () => {
    expect(decideNotification(input({ contentText: ' ', hasAttachment: true })).body).toBe(
      '(attached file)',
    );
    expect(
      decideNotification(
        input({ message: channelMessage({ is_me_message: true }), contentText: '/me waves' }),
      ).body,
    ).toBe('Olivia Owner waves');
  });

  it('a click opens the topic or the conversation at the message', () => {
    expect(decideNotification(input()).target).toEqual({
      kind: 'topic',
      streamId: 5,
      topic: 'lunch',
      messageId: 100,
    });
    expect(
      decideNotification(
        input({ message: directMessage({ display_recipient: [ME, EMMA, OLIVIA] }) }),
      ).target,
    ).toEqual({ kind: 'dm', userIds: [11, 12], messageId: 101 });
  });
});

describe('test notification', () => {
  it('always shows; sound by enable_sounds and notification_sound; content by pm_content', () => {
    expect(decideTestNotification({})).toMatchObject({
      desktop: true,
      sound: 'zulip',
      title: 'Notification Bot',
      body: 'This is a test notification from Tributary.',
    });
    expect(
      decideTestNotification({ enable_sounds: false, pm_content_in_desktop_notifications: false }),
    ).toMatchObject({
      desktop: true,
      sound: null,
      body: 'New direct message from Notification Bot',
    });
    expect(decideTestNotification({ notification_sound: 'none' }, 'Acme')).toMatchObject({
      sound: null,
      title: 'Notification Bot · Acme',
    });
  });
});
