// @vitest-environment node
// Realm slices: channels and subscriptions, users (incl. deactivation), user groups, statuses, user
// topics, drafts, settings, typing.
import { describe, expect, it } from 'vitest';
import { typingKeyForChannel, typingKeyForDm, typingUsersAt } from '../../../renderer/store';
import type { Subscription, User } from '../../../shared/api/types';
import type { ServerEvent } from '../../../shared/api/events';
import {
  channelMessage,
  eventId,
  messageEvent,
  register,
  setupStore,
  DESIGN,
  EMMA,
  FARID,
  GENERAL,
  GUS,
  SELF,
} from './fixtures';

describe('channels and subscriptions', () => {
  it('loads channels and subscriptions from register, indexed by name', () => {
    const t = setupStore();
    const { channels } = t.account();
    expect(channels.subscriptions.get(GENERAL)?.color).toBe('#76ce90');
    expect(channels.idByName.get('design')).toBe(DESIGN);
  });

  it('applies subscription updates, keeping is_muted and in_home_view consistent', () => {
    const t = setupStore();
    const before = t.account().channels.subscriptions.get(DESIGN);
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'update',
      stream_id: GENERAL,
      property: 'in_home_view',
      value: false,
    });
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'update',
      stream_id: GENERAL,
      property: 'pin_to_top',
      value: true,
    });
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'update',
      stream_id: GENERAL,
      property: 'some_future_property',
      value: 3,
    });
    const sub = t.account().channels.subscriptions.get(GENERAL)!;
    expect(sub.is_muted).toBe(true);
    expect(sub.pin_to_top).toBe(true);
    expect(t.account().channels.subscriptions.get(DESIGN)).toBe(before);
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'update',
      stream_id: 999,
      property: 'color',
      value: '#000',
    });
    expect(t.account().channels.subscriptions.has(999)).toBe(false);
  });

  it('adds and removes subscriptions and channels; renames update the name index', () => {
    const t = setupStore();
    const general = t.account().channels.subscriptions.get(GENERAL)!;
    const created: Subscription = {
      ...general,
      stream_id: 40,
      name: 'ops',
      color: '#abcdef',
      subscribers: [SELF],
    };
    t.apply({ id: eventId(), type: 'stream', op: 'create', streams: [created] });
    t.apply({ id: eventId(), type: 'subscription', op: 'add', subscriptions: [created] });
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [40],
      user_ids: [EMMA, FARID],
    });
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'peer_remove',
      stream_ids: [40],
      user_ids: [FARID],
    });
    expect(t.account().channels.subscriptions.get(40)?.subscribers?.sort()).toEqual(
      [SELF, EMMA].sort(),
    );
    t.apply({
      id: eventId(),
      type: 'stream',
      op: 'update',
      stream_id: 40,
      name: 'ops',
      property: 'name',
      value: 'operations',
    });
    t.apply({
      id: eventId(),
      type: 'stream',
      op: 'update',
      stream_id: 40,
      name: 'operations',
      property: 'description',
      value: '**ops**',
      rendered_description: '<p><strong>ops</strong></p>',
    });
    const { channels } = t.account();
    expect(channels.idByName.get('operations')).toBe(40);
    expect(channels.idByName.has('ops')).toBe(false);
    expect(channels.subscriptions.get(40)?.rendered_description).toBe(
      '<p><strong>ops</strong></p>',
    );
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'remove',
      subscriptions: [{ stream_id: 40, name: 'operations' }],
    });
    expect(t.account().channels.subscriptions.has(40)).toBe(false);
    expect(t.account().channels.channels.has(40)).toBe(true);
    t.apply({ id: eventId(), type: 'stream', op: 'delete', stream_ids: [40] });
    expect(t.account().channels.channels.has(40)).toBe(false);
  });
});

describe('users and groups', () => {
  it('applies every form of realm_user update', () => {
    const t = setupStore();
    const updates = [
      { user_id: EMMA, full_name: 'Emma Stone' },
      {
        user_id: EMMA,
        avatar_url: '/avatar/5.png',
        avatar_source: 'U' as const,
        avatar_url_medium: '/avatar/5-medium.png',
        avatar_version: 2,
      },
      { user_id: EMMA, timezone: 'Asia/Tokyo', email: 'emma@tributary.local' },
      { user_id: EMMA, role: 200 as const },
      { user_id: EMMA, delivery_email: null },
      {
        user_id: EMMA,
        custom_profile_field: { id: 3, value: 'Design', rendered_value: '<p>Design</p>' },
      },
      { user_id: EMMA, new_email: 'emma.stone@tributary.local' },
    ];
    t.apply(
      ...updates.map((person) => ({
        id: eventId(),
        type: 'realm_user' as const,
        op: 'update' as const,
        person,
      })),
    );
    const emma = t.account().users.users.get(EMMA)!;
    expect(emma).toMatchObject({
      full_name: 'Emma Stone',
      avatar_version: 2,
      timezone: 'Asia/Tokyo',
      role: 200,
      is_admin: true,
      delivery_email: null,
      email: 'emma.stone@tributary.local',
    });
    expect(emma.profile_data?.['3']).toEqual({ value: 'Design', rendered_value: '<p>Design</p>' });
    expect(t.account().users.idByEmail.get('emma.stone@tributary.local')).toBe(EMMA);
    t.apply({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: EMMA, custom_profile_field: { id: 3, value: null } },
    });
    expect(t.account().users.users.get(EMMA)!.profile_data?.['3']).toBeUndefined();
  });

  it('deactivation keeps the user but drops them from every group; unknown users are ignored', () => {
    const t = setupStore();
    const groupsWithGus = [...t.account().userGroups.groups.values()].filter((g) =>
      g.members.includes(GUS),
    );
    expect(groupsWithGus.length).toBeGreaterThan(0);
    t.apply({
      id: eventId(),
      type: 'subscription',
      op: 'peer_remove',
      stream_ids: [GENERAL],
      user_ids: [GUS],
    });
    t.apply({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: GUS, is_active: false },
    });
    expect(t.account().users.users.get(GUS)?.is_active).toBe(false);
    for (const g of t.account().userGroups.groups.values()) expect(g.members).not.toContain(GUS);
    t.apply({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: 4242, full_name: 'Nobody' },
    });
    expect(t.account().users.users.has(4242)).toBe(false);
    // Reactivation.
    t.apply({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: GUS, is_active: true },
    });
    expect(t.account().users.users.get(GUS)?.is_active).toBe(true);
  });

  it('reactivation gives back the group memberships deactivation dropped, except those removed since', () => {
    const t = setupStore();
    const groupsOf = (userId: number) =>
      [...t.account().userGroups.groups.values()]
        .filter((g) => g.members.includes(userId))
        .map((g) => g.id)
        .sort();
    // Gus is in one group of the snapshot; put him in a second one.
    const other = [...t.account().userGroups.groups.values()].find(
      (g) => !g.members.includes(GUS),
    )!;
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'add_members',
      group_id: other.id,
      user_ids: [GUS],
    });
    const before = groupsOf(GUS);
    expect(before.length).toBe(2);
    const active = (is_active: boolean): ServerEvent => ({
      id: eventId(),
      type: 'realm_user',
      op: 'update',
      person: { user_id: GUS, is_active },
    });
    t.apply(active(false));
    expect(groupsOf(GUS)).toEqual([]);
    // While deactivated, an administrator takes them out of one group.
    const [removedFrom, ...kept] = before;
    expect(kept.length).toBeGreaterThan(0);
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'remove_members',
      group_id: removedFrom,
      user_ids: [GUS],
    });
    t.apply(active(true));
    expect(groupsOf(GUS)).toEqual(kept);
    // A repeated reactivation changes nothing.
    const groups = t.account().userGroups;
    t.apply(active(true));
    expect(t.account().userGroups).toBe(groups);
  });

  it('adds users and removes the ones a guest loses access to', () => {
    const t = setupStore();
    const newUser: User = {
      ...t.account().users.users.get(EMMA)!,
      user_id: 77,
      email: 'new@tributary.local',
      full_name: 'New Person',
    };
    t.apply({ id: eventId(), type: 'realm_user', op: 'add', person: newUser });
    expect(t.account().users.idByEmail.get('new@tributary.local')).toBe(77);
    t.apply({
      id: eventId(),
      type: 'realm_user',
      op: 'remove',
      person: { user_id: 77, full_name: 'New Person' },
    });
    expect(t.account().users.users.has(77)).toBe(false);
  });

  it('applies user group events', () => {
    const t = setupStore();
    const base = [...t.account().userGroups.groups.values()][0];
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'add',
      group: {
        ...base,
        id: 50,
        name: 'designers',
        members: [EMMA],
        direct_subgroup_ids: [],
        is_system_group: false,
      },
    });
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'add_members',
      group_id: 50,
      user_ids: [FARID, EMMA],
    });
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'remove_members',
      group_id: 50,
      user_ids: [EMMA],
    });
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'add_subgroups',
      group_id: 50,
      direct_subgroup_ids: [base.id],
    });
    t.apply({
      id: eventId(),
      type: 'user_group',
      op: 'update',
      group_id: 50,
      data: {
        name: 'design team',
        can_mention_group: { direct_members: [EMMA], direct_subgroups: [] },
      },
    });
    expect(t.account().userGroups.groups.get(50)).toMatchObject({
      name: 'design team',
      members: [FARID],
      direct_subgroup_ids: [base.id],
      can_mention_group: { direct_members: [EMMA], direct_subgroups: [] },
    });
    t.apply({ id: eventId(), type: 'user_group', op: 'remove', group_id: 50 });
    expect(t.account().userGroups.groups.has(50)).toBe(false);
  });
});

describe('statuses, user topics, drafts, settings', () => {
  it('merges status changes and clears with empty strings', () => {
    const t = setupStore();
    t.apply({
      id: eventId(),
      type: 'user_status',
      user_id: EMMA,
      status_text: 'In a meeting',
      emoji_name: 'calendar',
      emoji_code: '1f4c5',
      reaction_type: 'unicode_emoji',
      scheduled_end_time: 2_000_000_000,
    });
    // The clear-after time is kept, and any change without one drops it (as the server does).
    expect(t.account().statuses.byUser.get(EMMA)?.scheduled_end_time).toBe(2_000_000_000);
    t.apply({ id: eventId(), type: 'user_status', user_id: EMMA, status_text: '' });
    expect(t.account().statuses.byUser.get(EMMA)).toEqual({
      emoji_name: 'calendar',
      emoji_code: '1f4c5',
      reaction_type: 'unicode_emoji',
    });
    t.apply({
      id: eventId(),
      type: 'user_status',
      user_id: EMMA,
      emoji_name: '',
      emoji_code: '',
      reaction_type: '',
    });
    expect(t.account().statuses.byUser.has(EMMA)).toBe(false);
  });

  it('tracks topic visibility policies case-insensitively and clears them with 0', () => {
    const t = setupStore();
    t.apply({
      id: eventId(),
      type: 'user_topic',
      stream_id: GENERAL,
      topic_name: 'Planning',
      last_updated: 1,
      visibility_policy: 3,
    });
    expect(t.account().userTopics.byChannel.get(GENERAL)?.get('planning')?.visibility_policy).toBe(
      3,
    );
    t.apply({
      id: eventId(),
      type: 'user_topic',
      stream_id: GENERAL,
      topic_name: 'planning',
      last_updated: 2,
      visibility_policy: 0,
    });
    expect(t.account().userTopics.byChannel.has(GENERAL)).toBe(false);
  });

  it('applies drafts add, update and remove', () => {
    const t = setupStore();
    const draft = {
      id: 9,
      type: 'stream' as const,
      to: [GENERAL],
      topic: 'planning',
      content: 'half a thought',
      timestamp: 1_795_300_000,
    };
    t.apply({ id: eventId(), type: 'drafts', op: 'add', drafts: [draft] });
    t.apply({
      id: eventId(),
      type: 'drafts',
      op: 'update',
      draft: { ...draft, content: 'a whole thought' },
    });
    expect(t.account().drafts.byId.get(9)?.content).toBe('a whole thought');
    t.apply(
      { id: eventId(), type: 'drafts', op: 'remove', draft_id: 9 },
      { id: eventId(), type: 'drafts', op: 'remove', draft_id: 9 },
    );
    expect(t.account().drafts.byId.size).toBe(0);
  });

  it('applies realm, user settings and defaults events', () => {
    const t = setupStore();
    expect(t.account().settings.realm.realm_name).toBe(register().realm_name);
    expect(t.account().settings.realm.realm_users).toBeUndefined();
    t.apply({
      id: eventId(),
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { name: 'Renamed realm', message_content_edit_limit_seconds: null },
    });
    t.apply({
      id: eventId(),
      type: 'realm',
      op: 'update',
      property: 'allow_message_editing',
      value: false,
    });
    t.apply({
      id: eventId(),
      type: 'user_settings',
      op: 'update',
      property: 'color_scheme',
      value: 2,
    });
    t.apply({
      id: eventId(),
      type: 'realm_user_settings_defaults',
      op: 'update',
      property: 'web_font_size_px',
      value: 14,
    });
    const { settings } = t.account();
    expect(settings.realm).toMatchObject({
      realm_name: 'Renamed realm',
      realm_message_content_edit_limit_seconds: null,
      realm_allow_message_editing: false,
    });
    expect(settings.user.color_scheme).toBe(2);
    expect(settings.realmUserDefaults.web_font_size_px).toBe(14);
    expect(settings.limits.typingStartedExpiryMs).toBe(
      register().server_typing_started_expiry_period_milliseconds,
    );
  });
});

describe('typing', () => {
  it('tracks typers per conversation with the server expiry, ends on stop or on their message', () => {
    const t = setupStore({ server_typing_started_expiry_period_milliseconds: 15_000 });
    const topic = typingKeyForChannel(GENERAL, 'Planning');
    const dm = typingKeyForDm([EMMA], SELF);
    const sender = (user_id: number) => ({
      user_id,
      email: t.account().users.users.get(user_id)!.email,
    });
    t.apply(
      {
        id: eventId(),
        type: 'typing',
        op: 'start',
        message_type: 'stream',
        sender: sender(EMMA),
        stream_id: GENERAL,
        topic: 'planning',
      },
      {
        id: eventId(),
        type: 'typing',
        op: 'start',
        message_type: 'stream',
        sender: sender(FARID),
        stream_id: GENERAL,
        topic: 'planning',
      },
      {
        id: eventId(),
        type: 'typing',
        op: 'start',
        message_type: 'direct',
        sender: sender(EMMA),
        recipients: [sender(EMMA), sender(SELF)],
      },
    );
    const typers = t.account().typing.byConversation.get(topic);
    expect(typingUsersAt(typers, t.clock.now).sort()).toEqual([EMMA, FARID]);
    expect(typingUsersAt(t.account().typing.byConversation.get(dm), t.clock.now)).toEqual([EMMA]);
    // Farid's message ends his indicator; Emma stops in the DM.
    t.apply(messageEvent(channelMessage(101, GENERAL, 'planning', { sender: FARID })));
    t.apply({
      id: eventId(),
      type: 'typing',
      op: 'stop',
      message_type: 'direct',
      sender: sender(EMMA),
      recipients: [sender(EMMA), sender(SELF)],
    });
    expect(typingUsersAt(t.account().typing.byConversation.get(topic), t.clock.now)).toEqual([
      EMMA,
    ]);
    expect(t.account().typing.byConversation.has(dm)).toBe(false);
    // Expiry.
    t.clock.now += 15_001;
    expect(typingUsersAt(t.account().typing.byConversation.get(topic), t.clock.now)).toEqual([]);
    t.store.getState().pruneTyping('a');
    expect(t.account().typing.byConversation.size).toBe(0);
  });
});

describe('channel lifecycle effects on messages and unreads', () => {
  it('a rename updates the channel name its messages carry; a delete drops its unreads', () => {
    const t = setupStore();
    t.apply(
      messageEvent(channelMessage(101, DESIGN, 'logo')),
      messageEvent(channelMessage(102, GENERAL, 'x')),
    );
    const untouched = t.account().messages.byId.get(102);
    t.apply({
      id: eventId(),
      type: 'stream',
      op: 'update',
      stream_id: DESIGN,
      name: 'design',
      property: 'name',
      value: 'brand',
    });
    expect(t.account().messages.byId.get(101)?.display_recipient).toBe('brand');
    expect(t.account().messages.byId.get(102)).toBe(untouched);
    t.apply({ id: eventId(), type: 'stream', op: 'delete', stream_ids: [DESIGN] });
    expect(t.account().unreads.streams.has(DESIGN)).toBe(false);
    expect(t.account().unreads.locations.has(101)).toBe(false);
    expect(t.account().unreads.locations.has(102)).toBe(true);
  });
});
