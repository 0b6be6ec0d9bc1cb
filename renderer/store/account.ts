// One account's state: every slice, built from a register snapshot, and the dispatcher that applies
// a batch of events to all slices (each slice owns its event handling, zulip-flutter style).
import type { RecentPrivateConversation, RegisterResponse } from '../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../shared/api/events';
import { SliceDraft } from './sliceDraft';
import { narrowMatchContext } from './match-context';
import type { EventContext, SliceDrafts } from './context';
import {
  emptyMessages,
  handleMessagesEvent,
  messagesEventTypes,
  type MessagesState,
} from './slices/messages';
import {
  emptyNarrows,
  handleNarrowsEvent,
  narrowsEventTypes,
  type NarrowsState,
} from './slices/narrows';
import {
  handleUnreadsEvent,
  unreadsEventTypes,
  unreadsFromRegister,
  type UnreadsState,
} from './slices/unreads';
import {
  channelsFromRegister,
  handleChannelsEvent,
  channelsEventTypes,
  type ChannelsState,
} from './slices/channels';
import {
  handleUsersEvent,
  usersEventTypes,
  usersFromRegister,
  type UsersState,
} from './slices/users';
import {
  handleUserGroupsEvent,
  userGroupsEventTypes,
  userGroupsFrom,
  type UserGroupsState,
} from './slices/userGroups';
import { draftsFrom, handleDraftsEvent, draftsEventTypes, type DraftsState } from './slices/drafts';
import {
  handleScheduledMessagesEvent,
  scheduledMessagesEventTypes,
  scheduledMessagesFrom,
  type ScheduledMessagesState,
} from './slices/scheduledMessages';
import {
  handleRemindersEvent,
  remindersEventTypes,
  remindersFrom,
  type RemindersState,
} from './slices/reminders';
import {
  handleUserTopicsEvent,
  userTopicsEventTypes,
  userTopicsFrom,
  type UserTopicsState,
} from './slices/userTopics';
import {
  handleStatusesEvent,
  statusesEventTypes,
  statusesFrom,
  type StatusesState,
} from './slices/statuses';
import {
  handlePresenceEvent,
  presenceEventTypes,
  presenceFromRegister,
  type PresenceState,
} from './slices/presence';
import {
  handleMutedUsersEvent,
  mutedUsersEventTypes,
  mutedUsersFrom,
  type MutedUsersState,
} from './slices/mutedUsers';
import {
  handleSettingsEvent,
  settingsEventTypes,
  settingsFromRegister,
  type SettingsState,
} from './slices/settings';
import {
  emptyTyping,
  handleTypingEvent,
  typingEventTypes,
  type TypingState,
} from './slices/typing';
import {
  emptyOutbox,
  handleOutboxEvent,
  outboxEventTypes,
  outboxAfterSnapshot,
  type OutboxState,
} from './slices/outbox';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'error';

export interface ConnectionState {
  readonly status: ConnectionStatus;
  readonly queueId: string | null;
  /** Human-readable reason for offline / error states. */
  readonly error?: string;
  /** When the status last changed (ms). */
  readonly since: number;
}

export interface AccountState {
  readonly accountId: string;
  readonly selfUserId: number;
  /** Increases with every snapshot replacement; include it in react-query keys to refetch after one. */
  readonly generation: number;
  /** Highest event id applied; events at or below it are re-deliveries and are skipped. */
  readonly lastEventId: number;
  readonly messages: MessagesState;
  readonly narrows: NarrowsState;
  readonly unreads: UnreadsState;
  readonly channels: ChannelsState;
  readonly users: UsersState;
  readonly userGroups: UserGroupsState;
  readonly drafts: DraftsState;
  readonly scheduledMessages: ScheduledMessagesState;
  readonly reminders: RemindersState;
  readonly userTopics: UserTopicsState;
  readonly statuses: StatusesState;
  readonly settings: SettingsState;
  readonly typing: TypingState;
  readonly outbox: OutboxState;
  readonly presence: PresenceState;
  readonly mutedUsers: MutedUsersState;
  readonly connection: ConnectionState;
  /** Direct-message conversations with their newest message id, from the snapshot (later ones come
   * from messages as they arrive). Lets the sidebar list conversations whose messages are not loaded. */
  readonly recentConversations: readonly RecentPrivateConversation[];
}

/**
 * What titles and names are read from: channels, users and the user's own id. The account itself
 * fits; components select these slices alone (useAccountNames), so message events do not
 * re-render them.
 */
export type AccountNames = Pick<AccountState, 'channels' | 'users' | 'selfUserId'>;

type SliceName = keyof SliceDrafts;
type Handler = (d: never, ev: ServerEvent, ctx: EventContext) => void;

/**
 * Each slice's handler and the event types it declares, in the order they run for one event.
 * Unreads runs before messages so it can see a message as it was before a duplicate delivery;
 * narrows runs after messages, channels and userTopics so it matches against the state this event
 * produced (a moved or flagged message, a muted channel, a followed topic).
 */
const SLICES: readonly [SliceName, Handler, readonly ServerEventType[]][] = [
  ['unreads', handleUnreadsEvent, unreadsEventTypes],
  ['channels', handleChannelsEvent, channelsEventTypes],
  ['users', handleUsersEvent, usersEventTypes],
  ['userTopics', handleUserTopicsEvent, userTopicsEventTypes],
  ['messages', handleMessagesEvent, messagesEventTypes],
  ['narrows', handleNarrowsEvent, narrowsEventTypes],
  ['userGroups', handleUserGroupsEvent, userGroupsEventTypes],
  ['drafts', handleDraftsEvent, draftsEventTypes],
  ['scheduledMessages', handleScheduledMessagesEvent, scheduledMessagesEventTypes],
  ['reminders', handleRemindersEvent, remindersEventTypes],
  ['statuses', handleStatusesEvent, statusesEventTypes],
  ['settings', handleSettingsEvent, settingsEventTypes],
  ['typing', handleTypingEvent, typingEventTypes],
  ['outbox', handleOutboxEvent, outboxEventTypes],
  ['presence', handlePresenceEvent, presenceEventTypes],
  ['mutedUsers', handleMutedUsersEvent, mutedUsersEventTypes],
];
const SLICE_ORDER = SLICES.map(([name]) => name);

/** Event type -> the slices handling it, so an event visits only the slices that care. */
const ROUTES = new Map<string, { name: SliceName; handle: Handler }[]>();
for (const [name, handle, types] of SLICES) {
  for (const type of types) {
    let route = ROUTES.get(type);
    if (!route) ROUTES.set(type, (route = []));
    route.push({ name, handle });
  }
}

/** The account state from a register response; `previous` lends the local-only parts it keeps. */
export function accountFromRegister(
  accountId: string,
  reg: RegisterResponse,
  now: number,
  previous?: AccountState,
  /** The register left the people out; they come later (ChatState.applyPeople). */
  peoplePending = false,
): AccountState {
  const settings = settingsFromRegister(reg);
  return {
    accountId,
    selfUserId: reg.user_id,
    generation: (previous?.generation ?? 0) + 1,
    lastEventId: reg.last_event_id,
    // Message history is refetched after a snapshot: the old lists may have missed events.
    messages: emptyMessages(),
    narrows: emptyNarrows(),
    unreads: unreadsFromRegister(reg.unread_msgs, reg.user_id),
    channels: channelsFromRegister(reg),
    users: usersFromRegister(reg, peoplePending),
    userGroups: userGroupsFrom(reg.realm_user_groups),
    drafts: draftsFrom(reg.drafts, previous ? new Map(previous.drafts.local) : undefined),
    scheduledMessages: scheduledMessagesFrom(reg.scheduled_messages),
    reminders: remindersFrom(reg.reminders),
    userTopics: userTopicsFrom(reg.user_topics),
    statuses: statusesFrom(reg.user_status),
    settings,
    typing: emptyTyping(settings.limits.typingStartedExpiryMs),
    outbox: previous ? outboxAfterSnapshot(previous.outbox) : emptyOutbox(),
    presence: presenceFromRegister(reg),
    mutedUsers: mutedUsersFrom(reg.muted_users),
    recentConversations: reg.recent_private_conversations ?? [],
    connection: {
      status: 'connected',
      queueId: reg.queue_id,
      since: now,
    },
  };
}

/** Drafts of every slice of an account, plus the context handlers read. */
export class AccountBatch {
  readonly ctx: EventContext;

  constructor(
    readonly account: AccountState,
    now: number,
  ) {
    const drafts: SliceDrafts = {
      messages: new SliceDraft(account.messages),
      narrows: new SliceDraft(account.narrows),
      unreads: new SliceDraft(account.unreads),
      channels: new SliceDraft(account.channels),
      users: new SliceDraft(account.users),
      userGroups: new SliceDraft(account.userGroups),
      drafts: new SliceDraft(account.drafts),
      scheduledMessages: new SliceDraft(account.scheduledMessages),
      reminders: new SliceDraft(account.reminders),
      userTopics: new SliceDraft(account.userTopics),
      statuses: new SliceDraft(account.statuses),
      settings: new SliceDraft(account.settings),
      typing: new SliceDraft(account.typing),
      outbox: new SliceDraft(account.outbox),
      presence: new SliceDraft(account.presence),
      mutedUsers: new SliceDraft(account.mutedUsers),
    };
    this.ctx = {
      ...drafts,
      selfUserId: account.selfUserId,
      now,
      match: narrowMatchContext(
        {
          get channels() {
            return drafts.channels.read;
          },
          get users() {
            return drafts.users.read;
          },
          get userTopics() {
            return drafts.userTopics.read;
          },
        },
        account.selfUserId,
      ),
    };
  }

  apply(ev: ServerEvent): void {
    const route = ROUTES.get(ev.type);
    if (!route) return; // heartbeat, and types this client does not track
    const ctx = this.ctx;
    for (let i = 0; i < route.length; i++) {
      const { name, handle } = route[i];
      (handle as (d: unknown, ev: ServerEvent, ctx: EventContext) => void)(ctx[name], ev, ctx);
    }
  }

  /** The new account state: the old one when nothing changed, else changed slices replaced. */
  finish(lastEventId = this.account.lastEventId): AccountState {
    let next: { -readonly [K in keyof AccountState]: AccountState[K] } | undefined;
    for (const name of SLICE_ORDER) {
      const draft = this.ctx[name];
      if (!draft.changed) continue;
      next ??= { ...this.account };
      (next as Record<SliceName, unknown>)[name] = draft.read;
    }
    if (lastEventId !== this.account.lastEventId) {
      next ??= { ...this.account };
      next.lastEventId = lastEventId;
    }
    return next ?? this.account;
  }
}

/** Apply a batch of events to one account; events already applied (by id) are skipped. */
export function applyEvents(
  account: AccountState,
  events: readonly ServerEvent[],
  now: number,
): AccountState {
  const batch = new AccountBatch(account, now);
  let lastEventId = account.lastEventId;
  for (const ev of events) {
    if (ev.id <= lastEventId) continue;
    lastEventId = ev.id;
    batch.apply(ev);
  }
  return batch.finish(lastEventId);
}
