// Every resource module, in mount order. To add a domain, write server/resources/<domain>.ts
// exporting a ResourceModule and append it here (see server/README.md "How to add a resource").
// initialState contributions are merged into POST /register in this order.
import type { ResourceModule } from './module';
import { eventsResource } from './events';
import { registerResource, setStateProviders } from './register';
import { serverInfoResource } from './server-info';
import { realmSettingsResource } from './realm-settings';
import { otherStateResource } from './other-state';
import { usersResource } from './users';
import { channelsResource } from './channels';
import { subscriptionsResource } from './subscriptions';
import { draftsResource } from './drafts';
import { userStatusResource } from './user-status';
import { presenceResource } from './presence';
import { mutedUsersResource } from './muted-users';
import { alertWordsResource } from './alert-words';
import { typingResource } from './typing';
import { userTopicsResource } from './user-topics';
import { settingsStateResource } from './settings-state';
import { settingsResource } from './settings';
import { realmConfigResource } from './realm-config';
import { userGroupsResource } from './user-groups';
import { userGroupAdminResource } from './user-group-admin';
import { botsResource } from './bots';
import { profileFieldsResource } from './profile-fields';
import { userLifecycleResource } from './user-lifecycle';
import { navigationViewsResource } from './navigation-views';
import { pushDevicesResource } from './push-devices';
import { videoCallsResource } from './video-calls';
import { channelAdminResource } from './channel-admin';
import { unreadsResource } from './unreads';
import { messagesResource } from './messages';
import { flagsResource } from './flags';
import { reactionsResource } from './reactions';
import { submessagesResource } from './submessages';
import { uploadsResource } from './uploads';
import { channelTopicsResource } from './channel-topics';
import { messageHistoryResource } from './message-history';
import { realmEmojiResource } from './realm-emoji';
import { readReceiptsResource } from './read-receipts';
import { scheduledMessagesResource } from './scheduled-messages';
import { remindersResource } from './reminders';
import { realmAdminResource } from './realm-admin';

export const resources: readonly ResourceModule[] = [
  serverInfoResource,
  registerResource,
  eventsResource,
  realmSettingsResource,
  // Empty forms of absent features first, so a module that implements one overrides it.
  otherStateResource,
  usersResource,
  channelsResource,
  subscriptionsResource,
  draftsResource,
  userStatusResource,
  presenceResource,
  mutedUsersResource,
  alertWordsResource,
  typingResource,
  userTopicsResource,
  settingsStateResource,
  settingsResource,
  realmConfigResource,
  userGroupsResource,
  userGroupAdminResource,
  botsResource,
  profileFieldsResource,
  userLifecycleResource,
  navigationViewsResource,
  pushDevicesResource,
  videoCallsResource,
  channelAdminResource,
  unreadsResource,
  messagesResource,
  messageHistoryResource,
  channelTopicsResource,
  flagsResource,
  reactionsResource,
  submessagesResource,
  uploadsResource,
  realmEmojiResource,
  readReceiptsResource,
  scheduledMessagesResource,
  remindersResource,
  realmAdminResource,
];

setStateProviders(resources);
