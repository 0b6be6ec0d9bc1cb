// Handlers of the personal-settings domain (shared/ipc/personal.ts): alert words, custom profile
// field values, the avatar (main reads the chosen file and sends it as multipart), and revealing the
// API key after the password is typed again.
import { readFile } from 'node:fs/promises';
import { endpoints } from '../../shared/api/endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { personalMethods } from '../../shared/ipc/personal';
import { IpcCodes } from '../../shared/ipc/errors';
import type { AccountSession } from '../accounts/session';
import type { AccountRecord } from '../accounts/account-store';
import { ApiError } from '../api/errors';
import { ApiClient } from '../api/client';
import type { FileIntake } from '../uploads/intake';
import { checkUploadSize } from '../uploads/uploads';

export type PersonalHandlers = Pick<MethodHandlers, keyof typeof personalMethods>;

/** The public server's default when register does not say (max_avatar_file_size_mib). */
const DEFAULT_MAX_AVATAR_FILE_SIZE_MIB = 5;

export function personalHandlers(deps: {
  signedInSession(accountId: string): AccountSession;
  record(accountId: string): AccountRecord | undefined;
  intake: FileIntake;
}): PersonalHandlers {
  const client = (accountId: string) => deps.signedInSession(accountId).client;
  return {
    addAlertWords: ({ accountId, words }) =>
      client(accountId).call(endpoints.addAlertWords, { alert_words: words }),
    removeAlertWords: ({ accountId, words }) =>
      client(accountId).call(endpoints.removeAlertWords, { alert_words: words }),
    updateProfileData: ({ accountId, data }) =>
      client(accountId).call(endpoints.updateProfileData, { data }),

    uploadAvatar: async ({ accountId, token }) => {
      const session = deps.signedInSession(accountId);
      const file = deps.intake.get(token);
      if (!file) {
        throw new ApiError('server', IpcCodes.invalidPayload, 'That file is no longer available');
      }
      try {
        const limit =
          session.register?.max_avatar_file_size_mib ?? DEFAULT_MAX_AVATAR_FILE_SIZE_MIB;
        checkUploadSize(file.name, file.size, limit);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(await readFile(file.path))]), file.name);
        const body = (await session.client.sendForm('POST', endpoints.uploadAvatar.path, form)) as {
          avatar_url: string;
        };
        return { avatarUrl: body.avatar_url };
      } finally {
        deps.intake.release(token);
      }
    },
    deleteAvatar: async ({ accountId }) => {
      const body = await client(accountId).call(endpoints.deleteAvatar, {});
      return { avatarUrl: body.avatar_url };
    },

    revealApiKey: async ({ accountId, password }) => {
      const record = deps.record(accountId);
      if (!record) throw new ApiError('server', IpcCodes.unknownAccount, 'No such account');
      // A client of its own, without the session's credentials: the wrong password's 401 must not
      // count as the account's key being refused (that signs the session out).
      const site = client(accountId).site;
      const answer = await new ApiClient({ site, userAgent: 'Tributary' }).call(
        endpoints.fetchApiKey,
        {
          username: record.email,
          password,
        },
      );
      return { apiKey: answer.api_key };
    },
  };
}
