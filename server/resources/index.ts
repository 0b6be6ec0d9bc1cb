// Every resource module, in mount order. To add one, write server/resources/<domain>/<resource>.ts
// exporting a ResourceModule and append it here (see server/README.md "How to add a resource").
// initialState contributions are merged into POST /register in this order.
import type { ResourceModule } from './module';
import { eventsResource } from './events/events';
import { registerResource, setStateProviders } from './events/register';
import { serverInfoResource } from './events/server-info';
import { realmSettingsResource } from './realm/realm-settings';
import { otherStateResource } from './events/other-state';
import { usersResource } from './users/users';
import { channelsResource } from './channels/channels';
import { subscriptionsResource } from './channels/subscriptions';
import { draftsResource } from './unsent/drafts';
import { userStatusResource } from './users/user-status';
import { presenceResource } from './users/presence';
import { mutedUsersResource } from './users/muted-users';
import { alertWordsResource } from './users/alert-words';
import { typingResource } from './messages/typing';
import { userTopicsResource } from './channels/user-topics';
import { settingsStateResource } from './users/settings-state';
import { settingsResource } from './users/settings';
import { realmConfigResource } from './realm/realm-config';
import { userGroupsResource } from './groups/user-groups';
import { userGroupAdminResource } from './groups/user-group-admin';
import { botsResource } from './users/bots';
import { profileFieldsResource } from './realm/profile-fields';
import { userLifecycleResource } from './users/user-lifecycle';
import { navigationViewsResource } from './users/navigation-views';
import { pushDevicesResource } from './users/push-devices';
import { videoCallsResource } from './realm/video-calls';
import { channelAdminResource } from './channels/channel-admin';
import { unreadsResource } from './messages/unreads';
import { messagesResource } from './messages/messages';
import { flagsResource } from './messages/flags';
import { reactionsResource } from './messages/reactions';
import { submessagesResource } from './messages/submessages';
import { uploadsResource } from './uploads/uploads';
import { channelTopicsResource } from './channels/channel-topics';
import { deleteTopicResource } from './channels/delete-topic';
import { messageHistoryResource } from './messages/message-history';
import { realmEmojiResource } from './realm/realm-emoji';
import { readReceiptsResource } from './messages/read-receipts';
import { scheduledMessagesResource } from './unsent/scheduled-messages';
import { remindersResource } from './unsent/reminders';
import { realmAdminResource } from './realm/realm-admin';
import { botAdminResource } from './users/bot-admin';
import { defaultChannelsResource } from './channels/default-channels';
import { userAdminResource } from './users/user-admin';
import { invitesResource } from './users/invites';
import { avatarResource } from './users/avatar';
import { realmIconResource } from './realm/realm-icon';
import { outgoingWebhooksResource } from './webhooks/outgoing-delivery';

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
  deleteTopicResource,
  flagsResource,
  reactionsResource,
  submessagesResource,
  uploadsResource,
  realmEmojiResource,
  readReceiptsResource,
  scheduledMessagesResource,
  remindersResource,
  realmAdminResource,
  botAdminResource,
  defaultChannelsResource,
  userAdminResource,
  invitesResource,
  avatarResource,
  realmIconResource,
  outgoingWebhooksResource,
];

setStateProviders(resources);
