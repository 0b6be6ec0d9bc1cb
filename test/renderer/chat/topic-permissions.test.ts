// What the topic menus offer, read from realm settings as the public web app reads them: the group
// settings of current servers, the policies older servers send instead, the channel's own groups,
// and the time limits for non-moderators when the message a move starts at is known.
import { describe, expect, it } from 'vitest';
import { topicPermissions } from '../../../renderer/features/topics/topic-permissions';

const ME = 7;
const CHANNEL = 3;
const NOW = Date.parse('2026-11-27T12:00:00Z');

type Inputs = Parameters<typeof topicPermissions>[0];

function account(
  realm: Record<string, unknown>,
  { role = 400, joined = '2020-01-01T00:00:00Z', channel = {} as Record<string, unknown> } = {},
): Inputs {
  return {
    selfUserId: ME,
    users: { users: new Map([[ME, { user_id: ME, role, date_joined: joined }]]) },
    userGroups: {
      groups: new Map([
        [1, { id: 1, members: [], direct_subgroup_ids: [], deactivated: false }],
        [2, { id: 2, members: [ME], direct_subgroup_ids: [], deactivated: false }],
      ]),
    },
    settings: { realm },
    channels: { channels: new Map([[CHANNEL, { stream_id: CHANNEL, ...channel }]]) },
  } as unknown as Inputs;
}

const NOBODY = 1;
const WITH_ME = 2;

describe('topic permissions', () => {
  it('reads the group settings of current servers', () => {
    const realm = {
      realm_can_move_messages_between_topics_group: WITH_ME,
      realm_can_move_messages_between_channels_group: NOBODY,
      realm_can_resolve_topics_group: NOBODY,
    };
    expect(topicPermissions(account(realm), CHANNEL)).toEqual({
      moveTopics: true,
      moveChannels: false,
      resolve: false,
    });
    // The channel's own groups add people.
    const channel = {
      can_move_messages_out_of_channel_group: WITH_ME,
      can_resolve_topics_group: WITH_ME,
    };
    expect(topicPermissions(account(realm, { channel }), CHANNEL)).toEqual({
      moveTopics: true,
      moveChannels: true,
      resolve: true,
    });
  });

  it('reads the older policies, and lets whoever may move topics resolve them there', () => {
    const realm = { realm_edit_topic_policy: 2, realm_move_messages_between_streams_policy: 1 };
    expect(topicPermissions(account(realm), CHANNEL)).toEqual({
      moveTopics: false,
      moveChannels: true,
      resolve: false,
    });
    expect(topicPermissions(account(realm, { role: 200 }), CHANNEL)).toEqual({
      moveTopics: true,
      moveChannels: true,
      resolve: true,
    });
    // Nobody means nobody, administrators included; guests only where everyone may.
    const nobody = { realm_edit_topic_policy: 5, realm_move_messages_between_streams_policy: 6 };
    expect(topicPermissions(account(nobody, { role: 200 }), CHANNEL).moveChannels).toBe(false);
    expect(topicPermissions(account(nobody, { role: 600 }), CHANNEL).moveTopics).toBe(true);
    expect(topicPermissions(account(realm, { role: 600 }), CHANNEL).moveChannels).toBe(false);
  });

  it('counts a member as full only after the waiting period', () => {
    const realm = { realm_edit_topic_policy: 3, realm_waiting_period_threshold: 30 };
    const newcomer = account(realm, {
      joined: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    expect(topicPermissions(newcomer, CHANNEL).moveTopics).toBe(false);
    expect(topicPermissions(account(realm), CHANNEL).moveTopics).toBe(true);
  });

  it('applies the time limits to members, not to moderators, from a known message', () => {
    const realm = {
      realm_can_move_messages_between_topics_group: WITH_ME,
      realm_can_move_messages_between_channels_group: WITH_ME,
      realm_can_resolve_topics_group: WITH_ME,
      realm_move_messages_within_stream_limit_seconds: 3600,
      realm_move_messages_between_streams_limit_seconds: null,
    };
    const twoHoursAgo = NOW / 1000 - 7200;
    expect(topicPermissions(account(realm), CHANNEL, twoHoursAgo, NOW)).toEqual({
      moveTopics: false,
      moveChannels: true,
      resolve: true,
    });
    expect(topicPermissions(account(realm), CHANNEL, NOW / 1000 - 60, NOW).moveTopics).toBe(true);
    expect(
      topicPermissions(account(realm, { role: 300 }), CHANNEL, twoHoursAgo, NOW).moveTopics,
    ).toBe(true);
    // A whole topic from its menu: no message, no limit (the server decides).
    expect(topicPermissions(account(realm), CHANNEL).moveTopics).toBe(true);
  });
});
