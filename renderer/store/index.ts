// The renderer's realm state. Non-React code (and tests) use createChatStore and the selectors;
// components use the hooks.
export { createChatStore, type ChatState, type ChatStore, type ChatStoreOptions } from './store';
export type { AccountNames, AccountState, ConnectionState, ConnectionStatus } from './account';
export { applyEvents, accountFromRegister } from './account';
export * from './selectors';
export { IdList } from './idList';
export type { StoredMessage } from './slices/messages';
export type { NarrowList, FetchedRange, SearchMatch } from './slices/narrows';
export type { UnreadLocation } from './slices/unreads';
export { isTopicMuted, topicVisibility } from './slices/userTopics';
export type { LocalEchoInput, LocalEchoDestination, OutboxEntry } from './slices/outbox';
export type { ServerLimits } from './slices/settings';
export { typingKeyForChannel, typingKeyForDm } from './slices/typing';
export { presenceStatus, type PresenceStatus, type PresenceState } from './slices/presence';
