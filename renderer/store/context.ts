// What a slice's event handler sees while a batch is applied: its own draft to write, and the other
// slices' drafts to read (e.g. the narrows slice reads the message the messages slice just stored).
import type { NarrowMatchContext } from '../../shared/narrow';
import type { SliceDraft } from './sliceDraft';
import type { MessagesState } from './slices/messages';
import type { NarrowsState } from './slices/narrows';
import type { UnreadsState } from './slices/unreads';
import type { ChannelsState } from './slices/channels';
import type { UsersState } from './slices/users';
import type { UserGroupsState } from './slices/userGroups';
import type { DraftsState } from './slices/drafts';
import type { ScheduledMessagesState } from './slices/scheduledMessages';
import type { RemindersState } from './slices/reminders';
import type { UserTopicsState } from './slices/userTopics';
import type { StatusesState } from './slices/statuses';
import type { SettingsState } from './slices/settings';
import type { TypingState } from './slices/typing';
import type { OutboxState } from './slices/outbox';
import type { PresenceState } from './slices/presence';
import type { MutedUsersState } from './slices/mutedUsers';

export interface SliceDrafts {
  messages: SliceDraft<MessagesState>;
  narrows: SliceDraft<NarrowsState>;
  unreads: SliceDraft<UnreadsState>;
  channels: SliceDraft<ChannelsState>;
  users: SliceDraft<UsersState>;
  userGroups: SliceDraft<UserGroupsState>;
  drafts: SliceDraft<DraftsState>;
  scheduledMessages: SliceDraft<ScheduledMessagesState>;
  reminders: SliceDraft<RemindersState>;
  userTopics: SliceDraft<UserTopicsState>;
  statuses: SliceDraft<StatusesState>;
  settings: SliceDraft<SettingsState>;
  typing: SliceDraft<TypingState>;
  outbox: SliceDraft<OutboxState>;
  presence: SliceDraft<PresenceState>;
  mutedUsers: SliceDraft<MutedUsersState>;
}

export interface EventContext extends SliceDrafts {
  selfUserId: number;
  /** Wall-clock milliseconds when the batch is applied (injectable for tests). */
  now: number;
  /** Lookups for client-side narrow matching, reading the slices' current state. */
  match: NarrowMatchContext;
}
