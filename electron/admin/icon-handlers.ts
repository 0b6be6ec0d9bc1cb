// Handlers of the admin-icon domain (shared/ipc/admin-icon.ts): the organization icon's upload
// (POST /realm/icon, the chosen image as the one multipart file) and removal (DELETE /realm/icon).
// Everyone's store learns the new icon from the realm update_dict event, this caller's too.
import { endpoint, type SuccessEnvelope } from '../../shared/api/endpoints';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type { adminIconMethods } from '../../shared/ipc/admin-icon';
import type { AccountSession } from '../accounts/session';
import type { FileIntake } from '../uploads/intake';
import { postChosenFile } from './file-post';

export type AdminIconHandlers = Pick<MethodHandlers, keyof typeof adminIconMethods>;

/** The public server's max_icon_file_size_mib: larger images are refused before any byte moves. */
export const MAX_ICON_FILE_SIZE_MIB = 5;

const deleteRealmIcon = endpoint<Record<string, never>, SuccessEnvelope & { icon_url: string }>(
  'DELETE',
  '/realm/icon',
);

export function adminIconHandlers(deps: {
  signedInSession(accountId: string): AccountSession;
  intake: FileIntake;
}): AdminIconHandlers {
  const client = (accountId: string) => deps.signedInSession(accountId).client;
  return {
    uploadRealmIcon: async ({ accountId, token }) => {
      const res = await postChosenFile(client(accountId), deps.intake, {
        token,
        apiPath: '/realm/icon',
        maxMib: MAX_ICON_FILE_SIZE_MIB,
      });
      return { iconUrl: String(res.icon_url) };
    },
    deleteRealmIcon: async ({ accountId }) => {
      const res = await client(accountId).call(deleteRealmIcon, {});
      return { iconUrl: res.icon_url };
    },
  };
}
