// Handlers of the uploads domain (shared/ipc/uploads.ts): choosing files (Electron's dialog), the
// size check before any byte moves, and starting, cancelling and listing uploads.
import type { uploadsMethods, ChosenFile } from '../../shared/ipc/uploads';
import type { MethodHandlers } from '../../shared/ipc/contract';
import { IpcCodes } from '../../shared/ipc/errors';
import type { AccountSession } from '../accounts/session';
import { ApiError } from '../api/errors';
import type { FileIntake } from './intake';
import { checkUploadSize, type UploadManager, type UploadTarget } from './uploads';

export type UploadHandlers = Pick<MethodHandlers, keyof typeof uploadsMethods>;

/** What the server takes when its register response does not say (api-notes: the default). */
const DEFAULT_MAX_FILE_UPLOAD_SIZE_MIB = 25;

/** Where an account's uploads go, with the file size limit its server announced. */
export function uploadTargetOf(session: AccountSession): UploadTarget {
  return {
    accountId: session.id,
    client: session.client,
    maxFileUploadSizeMib:
      session.register?.max_file_upload_size_mib ?? DEFAULT_MAX_FILE_UPLOAD_SIZE_MIB,
  };
}

export function uploadHandlers(deps: {
  /** The account's session, refusing a signed-out account. */
  signedInSession(accountId: string): AccountSession;
  uploads: UploadManager;
  intake: FileIntake;
  /** Shows the native open dialog (Electron only). */
  chooseFilePaths?: (multiple: boolean) => Promise<string[]>;
}): UploadHandlers {
  return {
    chooseFiles: async ({ multiple }): Promise<ChosenFile[]> => {
      if (!deps.chooseFilePaths) {
        throw new ApiError(
          'server',
          IpcCodes.unsupported,
          'No native file dialog in browser mode; pick files in the page instead.',
        );
      }
      const paths = await deps.chooseFilePaths(multiple ?? true);
      return paths.map((path) => deps.intake.register(path));
    },
    checkUpload: ({ accountId, name, size }) => {
      checkUploadSize(
        name,
        size,
        uploadTargetOf(deps.signedInSession(accountId)).maxFileUploadSizeMib,
      );
      return null;
    },
    startUpload: ({ accountId, token }) => {
      const { uploadId } = deps.uploads.start(
        uploadTargetOf(deps.signedInSession(accountId)),
        token,
      );
      return { uploadId };
    },
    cancelUpload: ({ uploadId }) => {
      deps.uploads.cancel(uploadId);
      return null;
    },
    listUploads: () => deps.uploads.list(),
  };
}
