// Shares a meeting in a conversation (issue 21, part 3), for the viewer and the command line alike:
// every file of the meeting (electron/manifest/share-files.ts) goes through the app's upload path
// (UploadManager: multipart, or resumable tus for large files, with progress), then one message links
// them all under a one-line summary. If any upload fails or is cancelled, nothing is posted.
import type { MethodHandlers } from '../../shared/ipc/contract';
import {
  ManifestIpcCodes,
  type manifestMethods,
  type SharedMeetingResult,
} from '../../shared/ipc/manifest';
import { meetingShareContent, type SharedFile } from '../../shared/manifest';
import type { UploadProgress } from '../../shared/ipc/uploads';
import { ApiError } from '../api/errors';
import type { AccountSession } from '../accounts/session';
import {
  ManifestReadError,
  meetingFilesToShare,
  MeetingShareError,
  type MeetingFiles,
} from '../manifest';
import type { FileIntake } from '../uploads/intake';
import { uploadTargetOf } from '../uploads/upload-handlers';
import { checkUploadSize, type UploadManager, type UploadTarget } from '../uploads/uploads';
import type { ManifestService } from './service';

export interface ShareMeetingDeps {
  intake: FileIntake;
  uploads: UploadManager;
  target: UploadTarget;
  /** Posts the message; resolves to its id (null when queued to be sent later). */
  post(content: string): Promise<number | null>;
  /** Tags this share's uploads, so their progress can be told apart from other uploads. */
  group?: string;
  /** Told of each upload as it starts (the command line prints progress from the pushes). */
  onStart?: (uploadId: string, name: string) => void;
}

export interface SharedMeeting {
  messageId: number | null;
  content: string;
  files: Array<SharedFile & { size: number }>;
}

export async function shareMeeting(
  deps: ShareMeetingDeps,
  manifestPath: string,
  meeting?: MeetingFiles,
): Promise<SharedMeeting> {
  const { files, title, durationMs } = meeting ?? (await meetingFilesToShare(manifestPath));
  // Size-checked up front: a file over the server's limit stops the share before any byte is sent.
  for (const file of files) checkUploadSize(file.name, file.size, deps.target.maxFileUploadSizeMib);
  const chosen = files.map((file) => deps.intake.register(file.path, { name: file.name }));
  const started: Array<{ uploadId: string; done: Promise<UploadProgress> }> = [];
  try {
    for (const [index, file] of chosen.entries()) {
      const upload = deps.uploads.start(deps.target, file.token, deps.group);
      started.push(upload);
      deps.onStart?.(upload.uploadId, files[index].name);
    }
  } catch (error) {
    for (const upload of started) deps.uploads.cancel(upload.uploadId);
    chosen.slice(started.length).forEach((file) => deps.intake.release(file.token));
    throw error;
  }
  // One upload that fails or is cancelled stops the others, and no message is posted.
  const stopAll = () => started.forEach((upload) => deps.uploads.cancel(upload.uploadId));
  const results = await Promise.all(
    started.map((upload) =>
      upload.done.then((result) => {
        if (result.state !== 'done') stopAll();
        return result;
      }),
    ),
  );
  const failed =
    results.find((r) => r.state === 'failed') ?? results.find((r) => r.state !== 'done' || !r.url);
  if (failed) {
    if (failed.state === 'cancelled') {
      throw new ApiError('aborted', ManifestIpcCodes.cancelled, 'Sharing was cancelled', 400);
    }
    throw new ApiError(
      'server',
      failed.error?.code ?? 'UPLOAD_FAILED',
      `${failed.name} could not be uploaded: ${failed.error?.msg ?? 'no link came back'}`,
      502,
    );
  }
  const shared = results.map((r, i) => ({ name: files[i].name, url: r.url!, size: files[i].size }));
  const content = meetingShareContent({ title, durationMs }, shared);
  const messageId = await deps.post(content);
  return { messageId, content, files: shared };
}

type ShareMethodName = keyof Pick<typeof manifestMethods, 'meetingShareFiles' | 'shareMeeting'>;

/** The viewer's "Share to a conversation…": the files it would post, and the share itself. */
export function meetingShareHandlers(deps: {
  manifests: ManifestService;
  intake: FileIntake;
  uploads: UploadManager;
  /** The account's session, refusing a signed-out account. */
  signedInSession(accountId: string): AccountSession;
}): Pick<MethodHandlers, ShareMethodName> {
  return {
    meetingShareFiles: async ({ sessionId }) => {
      const { files } = await filesOf(deps.manifests.manifestPathOf(sessionId));
      return files.map(({ name, size }) => ({ name, size }));
    },
    shareMeeting: async ({ accountId, sessionId, group, destination }) => {
      const manifestPath = deps.manifests.manifestPathOf(sessionId);
      const session = deps.signedInSession(accountId);
      const meeting = await filesOf(manifestPath);
      const shared = await shareMeeting(
        {
          intake: deps.intake,
          uploads: deps.uploads,
          target: uploadTargetOf(session),
          group,
          // Through the outbox, like any message the person writes: queued if the server is away.
          post: async (content) =>
            (
              await session.send(
                destination.type === 'channel'
                  ? { type: 'channel', to: destination.to, topic: destination.topic, content }
                  : { type: 'direct', to: destination.to, content },
              )
            ).messageId,
        },
        manifestPath,
        meeting,
      );
      const result: SharedMeetingResult = { messageId: shared.messageId, files: shared.files };
      return result;
    },
  };
}

async function filesOf(manifestPath: string): Promise<MeetingFiles> {
  try {
    return await meetingFilesToShare(manifestPath);
  } catch (error) {
    if (error instanceof MeetingShareError)
      throw new ApiError('server', ManifestIpcCodes.notShareable, error.message, 422);
    if (error instanceof ManifestReadError)
      throw new ApiError('server', ManifestIpcCodes.unreadable, error.message, 404);
    throw error;
  }
}
