// The realm lookups narrow matching needs (shared/narrow/match.ts): channel names, user emails, topic
// visibility and channel mutes. One definition serves both places that match: new and moved
// messages during an event batch (reading the batch's drafts) and local echoes in the selectors
// (reading the account state), so `in:home`, `is:muted` and name operands decide the same way for
// both.
import type { NarrowMatchContext } from '../../shared/narrow';
import type { ChannelsState } from './slices/channels';
import type { UsersState } from './slices/users';
import { topicVisibility, type UserTopicsState } from './slices/userTopics';

/** Where the lookups read from; read on every lookup, so a batch's getters see its latest drafts. */
export interface MatchSources {
  readonly channels: ChannelsState;
  readonly users: UsersState;
  readonly userTopics: UserTopicsState;
}

export function narrowMatchContext(sources: MatchSources, selfUserId: number): NarrowMatchContext {
  return {
    selfUserId,
    channelIdByName: (name) => sources.channels.idByName.get(name.toLowerCase()),
    userIdByEmail: (email) => sources.users.idByEmail.get(email.toLowerCase()),
    topicVisibility: (streamId, topic) => topicVisibility(sources.userTopics, streamId, topic),
    isChannelMuted: (streamId) => sources.channels.subscriptions.get(streamId)?.is_muted ?? false,
  };
}
