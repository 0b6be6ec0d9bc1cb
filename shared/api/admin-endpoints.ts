// Endpoints of channel, user-group and bot administration (Settings > Organization), in the form of
// the endpoint table (endpoints.ts). Bot creation and edits with an avatar are multipart and sent
// by main directly (electron/admin/bot-requests.ts); these are the form-encoded calls.
import { endpoint, type SuccessEnvelope } from './endpoints';
import type { GroupSettingValue, RealmBot } from './types';

type GroupSettingChange = { new: GroupSettingValue };

export const adminEndpoints = {
  updateStream: endpoint<
    {
      stream_id: number;
      new_name?: string;
      description?: string;
      is_private?: boolean;
      history_public_to_subscribers?: boolean;
      is_archived?: boolean;
    } & Record<string, unknown>,
    SuccessEnvelope
  >('PATCH', '/streams/{stream_id}'),
  archiveStream: endpoint<{ stream_id: number }, SuccessEnvelope>('DELETE', '/streams/{stream_id}'),
  addDefaultStream: endpoint<{ stream_id: number }, SuccessEnvelope>('POST', '/default_streams'),
  removeDefaultStream: endpoint<{ stream_id: number }, SuccessEnvelope>(
    'DELETE',
    '/default_streams',
  ),
  createUserGroup: endpoint<
    {
      name: string;
      description: string;
      members: number[];
      subgroups?: number[];
    } & Record<string, unknown>,
    SuccessEnvelope & { group_id: number }
  >('POST', '/user_groups/create'),
  updateUserGroup: endpoint<
    {
      user_group_id: number;
      name?: string;
      description?: string;
      deactivated?: boolean;
    } & Record<string, GroupSettingChange | string | number | boolean | undefined>,
    SuccessEnvelope
  >('PATCH', '/user_groups/{user_group_id}'),
  updateUserGroupMembers: endpoint<
    { user_group_id: number; add?: number[]; delete?: number[] },
    SuccessEnvelope
  >('POST', '/user_groups/{user_group_id}/members'),
  updateUserGroupSubgroups: endpoint<
    { user_group_id: number; add?: number[]; delete?: number[] },
    SuccessEnvelope
  >('POST', '/user_groups/{user_group_id}/subgroups'),
  deactivateUserGroup: endpoint<{ user_group_id: number }, SuccessEnvelope>(
    'POST',
    '/user_groups/{user_group_id}/deactivate',
  ),
  getOwnBots: endpoint<
    Record<string, never>,
    SuccessEnvelope & { bots: Array<RealmBot & { api_key: string }> }
  >('GET', '/bots'),
  regenerateBotKey: endpoint<{ bot_id: number }, SuccessEnvelope & { api_key: string }>(
    'POST',
    '/bots/{bot_id}/api_key/regenerate',
  ),
  deactivateBot: endpoint<{ bot_id: number }, SuccessEnvelope>('DELETE', '/bots/{bot_id}'),
  reactivateUser: endpoint<{ user_id: number }, SuccessEnvelope>(
    'POST',
    '/users/{user_id}/reactivate',
  ),
} as const;

export type { GroupSettingChange };
