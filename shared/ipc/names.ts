// The names of the contract's methods and pushes as plain data. The renderer's bridge needs only the
// names; importing contract.ts for them would put every zod schema into the page's bundle. The
// compile-time checks below (and test/unit/ipc-names.test.ts) keep these lists equal to the
// contract's keys: adding a method to a domain file means adding its name here.
import type { MethodName, PushName } from './contract';

export const METHOD_NAMES = [
  'listAccounts',
  'checkServer',
  'addAccount',
  'importZuliprc',
  'reauthenticate',
  'removeAccount',
  'switchAccount',
  'getSnapshot',
  'resync',
  'sendMessage',
  'getMessages',
  'getMessage',
  'getMessageHistory',
  'getStreamTopics',
  'renderMessage',
  'editMessage',
  'deleteMessage',
  'updateFlags',
  'updateFlagsForNarrow',
  'addReaction',
  'removeReaction',
  'sendSubmessage',
  'sendTyping',
  'getStreams',
  'subscribe',
  'createChannel',
  'addSubscribers',
  'unsubscribe',
  'updateSubscriptionProperties',
  'setUserTopic',
  'setStatus',
  'getUser',
  'updateSettings',
  'markAllAsRead',
  'getOutbox',
  'retryOutbox',
  'discardOutboxEntry',
  'listDrafts',
  'saveDraft',
  'deleteDraft',
  'chooseFiles',
  'checkUpload',
  'startUpload',
  'cancelUpload',
  'listUploads',
  'getAppInfo',
  'openExternal',
  'openUpload',
  'takeLaunchRequests',
  'openManifest',
  'chooseManifestAudio',
  'closeManifest',
  'saveManifestAttachment',
  'getManifestAttachment',
  'listRecentManifests',
  'forgetRecentManifest',
  'fetchExternalMedia',
  'saveUpload',
  'scheduleMessage',
  'editScheduledMessage',
  'deleteScheduledMessage',
  'createReminder',
  'getReadReceipts',
  'reportActivity',
  'getPresence',
  'muteUser',
  'unmuteUser',
  'rememberOpenNarrow',
] as const satisfies readonly MethodName[];

export const PUSH_NAMES = [
  'accounts',
  'snapshot',
  'events',
  'connection',
  'outbox',
  'drafts',
  'uploadProgress',
  'openManifest',
  'presence',
] as const satisfies readonly PushName[];

// Every contract name is listed (the `satisfies` above checks the other direction).
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
export const allMethodsListed: Missing<MethodName, (typeof METHOD_NAMES)[number]> = true;
export const allPushesListed: Missing<PushName, (typeof PUSH_NAMES)[number]> = true;

export const isListedPushName = (name: unknown): name is PushName =>
  typeof name === 'string' && (PUSH_NAMES as readonly string[]).includes(name);
