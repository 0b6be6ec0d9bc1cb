// Handlers of channel, user-group and bot administration (shared/ipc/admin-people.ts). Each is one
// call to the account's server; the server decides who may do what and its refusal reaches the
// page as the call's error. Results the screens show come back as events.
import { writeFile } from 'node:fs/promises';
import { endpoints } from '../../shared/api/endpoints';
import { adminEndpoints, type GroupSettingChange } from '../../shared/api/admin-endpoints';
import type { GroupSettingValue } from '../../shared/api/types';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { adminPeopleMethods } from '../../shared/ipc/admin-people';
import { IpcCodes } from '../../shared/ipc/errors';
import type { AccountSession } from '../accounts/session';
import type { FileIntake } from '../uploads/intake';
import { ApiError } from '../api/errors';
import { sendBotForm, zuliprcText } from './bot-requests';

export type AdminPeopleHandlers = Pick<MethodHandlers, keyof typeof adminPeopleMethods>;

/** Settings as PATCH takes them: {new: value} per changed setting. */
function settingChanges(
  settings: Record<string, GroupSettingValue | undefined> | undefined,
): Record<string, GroupSettingChange> {
  const out: Record<string, GroupSettingChange> = {};
  for (const [name, value] of Object.entries(settings ?? {}))
    if (value !== undefined) out[name] = { new: value };
  return out;
}

export function adminPeopleHandlers(deps: {
  signedInSession(accountId: string): AccountSession;
  intake: FileIntake;
  /** The native save dialog (Electron); absent in browser mode. */
  chooseSavePath?: (defaultName: string) => Promise<string | null>;
}): AdminPeopleHandlers {
  const client = (accountId: string) => deps.signedInSession(accountId).client;
  const avatarFile = (token: string | undefined) => {
    if (!token) return undefined;
    const entry = deps.intake.get(token);
    if (!entry)
      throw new ApiError('server', IpcCodes.invalidPayload, 'That picture is no longer available');
    return { path: entry.path, name: entry.name, size: entry.size };
  };
  /** Sends a bot form with the chosen picture, whose token is spent once the request ends. */
  const withAvatar = async <T>(
    token: string | undefined,
    send: (avatar: ReturnType<typeof avatarFile>) => Promise<T>,
  ): Promise<T> => {
    try {
      return await send(avatarFile(token));
    } finally {
      if (token) deps.intake.release(token);
    }
  };
  const ownBot = async (accountId: string, botId: number) => {
    const { bots } = await client(accountId).call(adminEndpoints.getOwnBots, {});
    const bot = bots.find((b) => b.user_id === botId);
    if (!bot)
      throw new ApiError('server', 'BAD_REQUEST', 'Only the bot’s owner can see its API key', 400);
    return bot;
  };

  return {
    adminCreateChannel: async (p) => {
      const me = deps.signedInSession(p.accountId).register?.user_id;
      const principals = p.subscribeSelf && me !== undefined ? [me, ...p.principals] : p.principals;
      return client(p.accountId).call(endpoints.subscribe, {
        subscriptions: [{ name: p.name, description: p.description }],
        principals: [...new Set(principals)],
        invite_only: p.privacy === 'private',
        ...(p.privacy === 'private' && p.historyPublic !== undefined
          ? { history_public_to_subscribers: p.historyPublic }
          : {}),
        ...(p.isDefault ? { is_default_stream: true } : {}),
        ...p.groupSettings,
      });
    },
    updateChannel: (p) =>
      client(p.accountId).call(adminEndpoints.updateStream, {
        stream_id: p.channelId,
        new_name: p.newName,
        description: p.description,
        is_private: p.isPrivate,
        history_public_to_subscribers: p.historyPublic,
        ...settingChanges(p.groupSettings),
      }),
    archiveChannel: (p) =>
      client(p.accountId).call(adminEndpoints.archiveStream, { stream_id: p.channelId }),
    unarchiveChannel: (p) =>
      client(p.accountId).call(adminEndpoints.updateStream, {
        stream_id: p.channelId,
        is_archived: false,
      }),
    setDefaultChannel: (p) =>
      client(p.accountId).call(
        p.isDefault ? adminEndpoints.addDefaultStream : adminEndpoints.removeDefaultStream,
        { stream_id: p.channelId },
      ),

    createUserGroup: (p) =>
      client(p.accountId).call(adminEndpoints.createUserGroup, {
        name: p.name,
        description: p.description,
        members: p.members,
        subgroups: p.subgroups,
        ...p.settings,
      }),
    updateUserGroup: (p) =>
      client(p.accountId).call(adminEndpoints.updateUserGroup, {
        user_group_id: p.groupId,
        name: p.name,
        description: p.description,
        deactivated: p.deactivated,
        ...settingChanges(p.settings),
      }),
    updateUserGroupMembers: (p) =>
      client(p.accountId).call(adminEndpoints.updateUserGroupMembers, {
        user_group_id: p.groupId,
        ...(p.add.length > 0 ? { add: p.add } : {}),
        ...(p.remove.length > 0 ? { delete: p.remove } : {}),
      }),
    updateUserGroupSubgroups: (p) =>
      client(p.accountId).call(adminEndpoints.updateUserGroupSubgroups, {
        user_group_id: p.groupId,
        ...(p.add.length > 0 ? { add: p.add } : {}),
        ...(p.remove.length > 0 ? { delete: p.remove } : {}),
      }),
    deactivateUserGroup: (p) =>
      client(p.accountId).call(adminEndpoints.deactivateUserGroup, { user_group_id: p.groupId }),

    createBot: async (p) => {
      const body = await withAvatar(p.avatarToken, (avatar) =>
        sendBotForm(
          client(p.accountId),
          'POST',
          '/bots',
          {
            full_name: p.fullName,
            short_name: p.shortName,
            bot_type: p.botType,
            payload_url: p.payloadUrl === undefined ? undefined : JSON.stringify(p.payloadUrl),
            interface_type: p.interfaceType,
          },
          avatar,
        ),
      );
      // The new key stays here: the page asks for it with showBotKey when the person wants it.
      return { userId: Number(body.user_id) };
    },
    updateBot: async (p) =>
      (await withAvatar(p.avatarToken, (avatar) =>
        sendBotForm(
          client(p.accountId),
          'PATCH',
          `/bots/${p.botId}`,
          {
            full_name: p.fullName,
            bot_owner_id: p.ownerId,
            service_payload_url:
              p.payloadUrl === undefined ? undefined : JSON.stringify(p.payloadUrl),
            service_interface: p.interfaceType,
          },
          avatar,
        ),
      )) as { result: 'success'; msg: string },
    deactivateBot: (p) =>
      client(p.accountId).call(adminEndpoints.deactivateBot, { bot_id: p.botId }),
    reactivateBot: (p) =>
      client(p.accountId).call(adminEndpoints.reactivateUser, { user_id: p.botId }),
    showBotKey: async (p) => ({ apiKey: (await ownBot(p.accountId, p.botId)).api_key }),
    regenerateBotKey: async (p) => {
      const res = await client(p.accountId).call(adminEndpoints.regenerateBotKey, {
        bot_id: p.botId,
      });
      return { apiKey: res.api_key };
    },
    saveBotZuliprc: async (p) => {
      const bot = await ownBot(p.accountId, p.botId);
      // GET /bots of the public server lists no services; register's realm_bots does.
      const listed = deps
        .signedInSession(p.accountId)
        .register?.realm_bots?.find((b) => b.user_id === p.botId);
      const token = bot.services?.[0]?.token ?? listed?.services[0]?.token;
      const content = zuliprcText(bot.email, bot.api_key, client(p.accountId).site, token);
      if (!deps.chooseSavePath) return { fileName: 'zuliprc', content };
      const target = await deps.chooseSavePath('zuliprc');
      if (!target) return null;
      await writeFile(target, content, { mode: 0o600 });
      return { savedTo: target };
    },
  };
}
