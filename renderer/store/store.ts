// The renderer's zustand store: every account's realm state, and the actions that change it.
// Each action is exactly one setState, so a batch of events is one store update (and one render).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Draft, Message, MessageWithFlags, RegisterResponse } from '../../shared/api/types';
import type { ServerEvent } from '../../shared/api/events';
import {
  AccountBatch,
  accountFromRegister,
  applyEvents,
  type AccountState,
  type ConnectionState,
} from './account';
import { mergeMessages } from './slices/messages';
import { closeNarrow, mergeFetchedIntoNarrow, type FetchedRange } from './slices/narrows';
import {
  addLocalEcho,
  dropOutboxForFetched,
  removeLocalEcho,
  updateLocalEcho,
  type LocalEchoInput,
} from './slices/outbox';
import { pruneTyping } from './slices/typing';
import { peopleArrived } from './slices/users';
import { applyPresenceReport } from './slices/presence';
import type { PresenceUpdate } from '../../shared/ipc/people';
import type { PeopleMessage } from '../../shared/ipc/accounts';

export interface ChatState {
  /** Each account's state, by account id (accounts are independent realms or identities). */
  readonly accounts: Readonly<Record<string, AccountState>>;
  /**
   * The account the window shows: the one source of truth in the renderer. Main decides it
   * (listAccounts, the accounts push); switching and signing in set it here at once. Its state may
   * not be loaded yet (selectActiveAccount is then undefined).
   */
  readonly activeAccountId: string | null;

  /**
   * Replace an account's state from a register response (first start, or after a lost queue).
   * peoplePending: it left the people out, who come with applyPeople.
   */
  replaceSnapshot(accountId: string, register: RegisterResponse, peoplePending?: boolean): void;
  /**
   * The people a snapshot without them was waiting for, then the `realm_user` events main held
   * until they came (already numbered below events applied since: applied here regardless).
   */
  applyPeople(message: PeopleMessage): void;
  /** Apply a batch of events from GET /events as one store update. */
  applyEventBatch(accountId: string, events: readonly ServerEvent[]): void;
  /** Add a history page (GET /messages) for a narrow; events keep it current afterwards. */
  mergeFetchedMessages(
    accountId: string,
    narrowKey: string,
    messages: readonly Message[],
    range: FetchedRange,
  ): void;
  /** Forget a narrow's list (its messages stay until the next snapshot). */
  closeNarrow(accountId: string, narrowKey: string): void;

  addLocalEcho(accountId: string, echo: LocalEchoInput): void;
  /** POST /messages succeeded; the entry leaves when the message event (or a page with it) arrives. */
  markLocalEchoSent(accountId: string, localId: string, messageId: number): void;
  /**
   * The user's own sent message, fetched: applied as its message event would be (the echo leaves,
   * open views that match show it). For a message whose event never comes: the public server sends
   * none to a sender who is not subscribed to the channel.
   */
  addSentMessage(accountId: string, localId: string, message: MessageWithFlags): void;
  markLocalEchoFailed(accountId: string, localId: string, error: string): void;
  /** Retrying: back to pending. */
  markLocalEchoPending(accountId: string, localId: string): void;
  removeLocalEcho(accountId: string, localId: string): void;

  setLocalDraft(accountId: string, key: string, draft: Draft): void;
  removeLocalDraft(accountId: string, key: string): void;

  setConnectionState(accountId: string, patch: Partial<Omit<ConnectionState, 'since'>>): void;
  /** Drop expired typing indicators (call on a timer while any are shown). */
  pruneTyping(accountId: string): void;

  /** Presence main heard from POST /users/me/presence (a delta, or everyone when complete). */
  applyPresenceUpdate(update: PresenceUpdate): void;

  /** Show this account (also before its snapshot arrives). */
  setActiveAccount(accountId: string | null): void;
  removeAccount(accountId: string): void;
}

export interface ChatStoreOptions {
  /** Clock in milliseconds (tests inject one). */
  now?: () => number;
}

export type ChatStore = StoreApi<ChatState>;

export function createChatStore(options: ChatStoreOptions = {}): ChatStore {
  const now = options.now ?? (() => Date.now());

  return createStore<ChatState>()((set, get) => {
    /** Run fn on an account's slice drafts and store the result in one setState. */
    const withBatch = (accountId: string, fn: (batch: AccountBatch) => void) => {
      const account = get().accounts[accountId];
      if (!account) return;
      const batch = new AccountBatch(account, now());
      fn(batch);
      const next = batch.finish();
      if (next !== account) set({ accounts: { ...get().accounts, [accountId]: next } });
    };

    const putAccount = (accountId: string, next: AccountState) => {
      const state = get();
      set({
        accounts: { ...state.accounts, [accountId]: next },
        activeAccountId: state.activeAccountId ?? accountId,
      });
    };

    return {
      accounts: {},
      activeAccountId: null,

      replaceSnapshot(accountId, register, peoplePending = false) {
        putAccount(
          accountId,
          accountFromRegister(accountId, register, now(), get().accounts[accountId], peoplePending),
        );
      },

      applyPeople({ accountId, queueId, people, events }) {
        const account = get().accounts[accountId];
        // For another snapshot than the one shown (a resync since brought the people with it).
        if (!account?.users.loading || account.connection.queueId !== queueId) return;
        withBatch(accountId, (b) => {
          peopleArrived(b.ctx.users, people);
          for (const event of events) b.apply(event);
        });
      },

      applyEventBatch(accountId, events) {
        const account = get().accounts[accountId];
        if (!account || events.length === 0) return;
        const next = applyEvents(account, events, now());
        if (next !== account) set({ accounts: { ...get().accounts, [accountId]: next } });
      },

      mergeFetchedMessages(accountId, narrowKey, messages, range) {
        withBatch(accountId, (b) => {
          mergeMessages(b.ctx.messages, messages);
          mergeFetchedIntoNarrow(b.ctx.narrows, narrowKey, messages, range);
          if (b.ctx.outbox.read.byLocalId.size > 0) {
            dropOutboxForFetched(b.ctx.outbox, new Set(messages.map((m) => m.id)));
          }
        });
      },

      applyPresenceUpdate(update) {
        withBatch(update.accountId, (b) =>
          applyPresenceReport(
            b.ctx.presence,
            update.presences,
            update.serverTimestamp,
            update.complete,
          ),
        );
      },

      closeNarrow(accountId, narrowKey) {
        withBatch(accountId, (b) => closeNarrow(b.ctx.narrows, narrowKey));
      },

      addLocalEcho(accountId, echo) {
        withBatch(accountId, (b) => addLocalEcho(b.ctx.outbox, echo, b.ctx.now));
      },
      markLocalEchoSent(accountId, localId, messageId) {
        withBatch(accountId, (b) => {
          // The message event may have arrived before POST /messages answered.
          if (b.ctx.messages.read.byId.has(messageId)) removeLocalEcho(b.ctx.outbox, localId);
          else
            updateLocalEcho(b.ctx.outbox, localId, { status: 'sent', messageId, error: undefined });
        });
      },
      addSentMessage(accountId, localId, message) {
        // Not through applyEvents: an event id of its own would hide the server's next event.
        withBatch(accountId, (b) =>
          b.apply({
            type: 'message',
            id: -1,
            message,
            flags: message.flags,
            local_message_id: localId,
          }),
        );
      },
      markLocalEchoFailed(accountId, localId, error) {
        withBatch(accountId, (b) =>
          updateLocalEcho(b.ctx.outbox, localId, { status: 'failed', error }),
        );
      },
      markLocalEchoPending(accountId, localId) {
        withBatch(accountId, (b) =>
          updateLocalEcho(b.ctx.outbox, localId, { status: 'pending', error: undefined }),
        );
      },
      removeLocalEcho(accountId, localId) {
        withBatch(accountId, (b) => removeLocalEcho(b.ctx.outbox, localId));
      },

      setLocalDraft(accountId, key, draft) {
        withBatch(accountId, (b) => b.ctx.drafts.write.local.set(key, draft));
      },
      removeLocalDraft(accountId, key) {
        withBatch(accountId, (b) => {
          if (b.ctx.drafts.read.local.has(key)) b.ctx.drafts.write.local.delete(key);
        });
      },

      setConnectionState(accountId, patch) {
        const account = get().accounts[accountId];
        if (!account) return;
        const connection: ConnectionState = {
          ...account.connection,
          ...patch,
          since:
            patch.status && patch.status !== account.connection.status
              ? now()
              : account.connection.since,
        };
        putAccount(accountId, { ...account, connection });
      },

      pruneTyping(accountId) {
        withBatch(accountId, (b) => pruneTyping(b.ctx.typing, b.ctx.now));
      },

      setActiveAccount(accountId) {
        if (get().activeAccountId !== accountId) set({ activeAccountId: accountId });
      },

      removeAccount(accountId) {
        const { [accountId]: _removed, ...rest } = get().accounts;
        const activeAccountId = get().activeAccountId;
        set({
          accounts: rest,
          activeAccountId:
            activeAccountId === accountId ? (Object.keys(rest)[0] ?? null) : activeAccountId,
        });
      },
    };
  });
}
