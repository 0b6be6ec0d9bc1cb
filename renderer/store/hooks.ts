// React hooks over the chat store. Each hook selects the smallest value it needs (one message, one
// narrow's list, one user), so a component re-renders only when that value is replaced.
import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { MessageWithFlags, User, UserStatus } from '../../shared/api/types';
import { createChatStore, type ChatState, type ChatStore } from './store';
import type { AccountNames } from './account';
import {
  selectActiveAccount,
  selectOutboxForNarrow,
  selectUnreadCounts,
  type UnreadCounts,
} from './selectors';
import type { NarrowList } from './slices/narrows';
import type { OutboxEntry } from './slices/outbox';
import { presenceStatus, type PresenceStatus } from './slices/presence';

/** The app's store. Tests and stories may provide their own through ChatStoreProvider. */
export const appStore: ChatStore = createChatStore();

const ChatStoreContext = createContext<ChatStore>(appStore);

export function ChatStoreProvider({ store, children }: { store: ChatStore; children?: ReactNode }) {
  return createElement(ChatStoreContext.Provider, { value: store }, children);
}

export function useChatStoreApi(): ChatStore {
  return useContext(ChatStoreContext);
}

export function useChatStore<T>(selector: (state: ChatState) => T): T {
  return useStore(useContext(ChatStoreContext), selector);
}

/** The store's actions (stable functions; never causes a re-render). */
export function useChatActions(): ChatState {
  return useContext(ChatStoreContext).getState();
}

/**
 * The active account's channels, users and own id, for titles and names: the same object until one
 * of them changes (a message, unread or typing event re-renders nothing through it).
 */
export function useAccountNames(): AccountNames | undefined {
  const channels = useChatStore((s) => selectActiveAccount(s)?.channels);
  const users = useChatStore((s) => selectActiveAccount(s)?.users);
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId);
  return useMemo(
    () =>
      channels && users && selfUserId !== undefined ? { channels, users, selfUserId } : undefined,
    [channels, users, selfUserId],
  );
}

export function useMessage(id: number): MessageWithFlags | undefined {
  return useChatStore((s) => selectActiveAccount(s)?.messages.byId.get(id));
}

/** A narrow's list (ids via list.ids.at(i) / length, plus found_oldest / found_newest). */
export function useNarrowIds(narrowKey: string): NarrowList | undefined {
  return useChatStore((s) => selectActiveAccount(s)?.narrows.lists.get(narrowKey));
}

export function useOutbox(narrowKey: string): readonly OutboxEntry[] {
  return useChatStore((s) => selectOutboxForNarrow(selectActiveAccount(s), narrowKey));
}

export function useUnreadCounts(): UnreadCounts {
  return useChatStore((s) => selectUnreadCounts(selectActiveAccount(s)));
}

export function useUser(userId: number): User | undefined {
  return useChatStore((s) => selectActiveAccount(s)?.users.users.get(userId));
}

export function useUserStatus(userId: number): UserStatus | undefined {
  return useChatStore((s) => selectActiveAccount(s)?.statuses.byUser.get(userId));
}

/** Typing users of one conversation (typingKeyForChannel / typingKeyForDm) with their expiry times. */
export function useTypers(conversationKey: string): ReadonlyMap<number, number> | undefined {
  return useChatStore((s) => selectActiveAccount(s)?.typing.byConversation.get(conversationKey));
}

/**
 * One person's dot. The selector returns a string, so a row re-renders only when that person's
 * status changes, never for someone else's report.
 */
export function usePresenceStatus(userId: number): PresenceStatus {
  return useChatStore((s) => {
    const presence = selectActiveAccount(s)?.presence;
    return presence ? presenceStatus(presence, userId) : 'offline';
  });
}

export function useIsUserMuted(userId: number): boolean {
  return useChatStore((s) => selectActiveAccount(s)?.mutedUsers.byUser.has(userId) ?? false);
}

/** The active account's 12/24-hour setting, for every time the app shows. */
export function useTwentyFourHour(): boolean {
  return useChatStore((s) => !!selectActiveAccount(s)?.settings.user.twenty_four_hour_time);
}
