// The meeting-manifest domain: the viewer opens a manifest through main (which reads, decodes and
// verifies it with electron/manifest), picks the audio, saves attachments and keeps a recent-files
// list. The renderer never reads files itself; it gets a report and, only when the audio is
// `verified`, a media token that the audio element plays from (see mediaUrlForToken).
import * as z from 'zod';
import type { ManifestReport } from '../manifest';
import { forAccount, payload, streamId, userId } from './common';
import { method } from './define';

/** One opened manifest in main; closing it (or opening another audio file) revokes its media token. */
export interface ManifestSession {
  sessionId: string;
  /** The check's result. Attachment bytes are left out (see `attachments`): they stay in main. */
  report: ManifestReport;
  attachments: ManifestAttachmentInfo[];
  /**
   * Present only when integrity is `verified` and the manifest is valid (or, for an invalid one, after
   * "Play anyway"): the token the audio stream is served under.
   */
  mediaToken: string | null;
  /** MIME type of the verified audio as served. */
  mediaType: string | null;
  /**
   * Browser mode only sees a dropped file's bytes, not its folder: main opened a temporary copy, so
   * payloads and audio beside the original cannot be found.
   */
  temporaryCopy: boolean;
}

export interface ManifestAttachmentInfo {
  index: number;
  name: string;
  mime: string;
  /** Decoded size, or null when contentBase64 is not valid base64. */
  byteLength: number | null;
  /** The text of a small text/* attachment, for display (never rendered as HTML). */
  textPreview: string | null;
}

/** One file of a meeting to share: the name it is posted under and its size. */
export interface MeetingShareFile {
  name: string;
  size: number;
}

export interface SharedMeetingResult {
  /** The posted message's id; null when it was queued to be sent once the server is reachable. */
  messageId: number | null;
  files: Array<MeetingShareFile & { url: string }>;
}

export interface RecentManifest {
  path: string;
  title: string | null;
  /** Integrity status when it was last opened. */
  status: string;
  openedAt: number;
}

/** Codes the manifest domain mints (besides the shared IpcCodes). */
export const ManifestIpcCodes = {
  /** The manifest file itself could not be read. */
  unreadable: 'MANIFEST_UNREADABLE',
  /** A path the renderer named that main did not hand out (dialog, drop, launch, recent list). */
  pathNotAllowed: 'PATH_NOT_ALLOWED',
  unknownSession: 'UNKNOWN_MANIFEST_SESSION',
  unknownAttachment: 'UNKNOWN_ATTACHMENT',
  /** "Play anyway" for audio that did not match the manifest (only matching audio can play). */
  notPlayable: 'MANIFEST_AUDIO_NOT_PLAYABLE',
  /** The meeting cannot be shared as it is (a referenced file missing, two files with one name…). */
  notShareable: 'MEETING_NOT_SHAREABLE',
  /** The user closed a dialog without choosing. */
  cancelled: 'CANCELLED',
} as const;

const filePath = z.string().min(1).max(4096);
const sessionId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'not a manifest session id');
const shareGroup = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not a share id');
/** Where a meeting is shared: a channel (id or name) and topic, or a direct message. */
const shareDestination = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('channel'),
    to: z.union([streamId, z.string().min(1).max(256)]),
    topic: z.string().min(1).max(1024),
  }),
  z.strictObject({ type: z.literal('direct'), to: z.array(userId).min(1).max(1000) }),
]);
export type ShareDestination = z.infer<typeof shareDestination>;
const intakeToken = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'not a file token');

export const manifestMethods = {
  /**
   * Opens and checks a manifest: by `path` (from the command line, the recent list or, in browser
   * mode, typed by the user), by `token` (a file the user dropped, see FileIntake), or with neither
   * through the native open dialog (Electron; UNSUPPORTED in browser mode). CANCELLED when the user
   * closes the dialog.
   */
  openManifest: method<ManifestSession>()(
    payload({ path: filePath.optional(), token: intakeToken.optional() }),
  ),
  /** Checks the session's manifest against another audio file: `path`, `token` (a dropped file), or the dialog. */
  chooseManifestAudio: method<ManifestSession>()(
    payload({ sessionId, path: filePath.optional(), token: intakeToken.optional() }),
  ),
  /**
   * "Play anyway": the manifest has errors but its audio matched the integrity values; mints the media
   * token and remembers the choice for this manifest file (this run only). MANIFEST_AUDIO_NOT_PLAYABLE
   * when the audio did not match.
   */
  playManifestAnyway: method<ManifestSession>()(payload({ sessionId })),
  /** Forgets the session and revokes its media token. */
  closeManifest: method<null>()(payload({ sessionId })),
  /**
   * Saves one attachment through the native save dialog (Electron). In browser mode it answers
   * UNSUPPORTED and the renderer downloads the bytes from `getManifestAttachment` instead.
   */
  saveManifestAttachment: method<{ savedTo: string }>()(
    payload({ sessionId, index: z.number().int().min(0) }),
  ),
  /** One attachment's decoded bytes, base64 (for a download in browser mode). */
  getManifestAttachment: method<{ name: string; mime: string; contentBase64: string }>()(
    payload({ sessionId, index: z.number().int().min(0) }),
  ),
  /**
   * The files "Share to a conversation…" would post for the session's manifest: the manifest, its
   * audio and every payload it references by path. MEETING_NOT_SHAREABLE with the reason otherwise.
   */
  meetingShareFiles: method<MeetingShareFile[]>()(payload({ sessionId })),
  /**
   * Uploads those files (multipart, or tus for large ones; progress arrives as `uploadProgress`
   * pushes tagged with `group`) and posts one message linking them under a summary line. Cancelling
   * any of the uploads cancels the share (CANCELLED); nothing is posted unless every upload succeeded.
   */
  shareMeeting: method<SharedMeetingResult>()(
    forAccount({ sessionId, group: shareGroup, destination: shareDestination }),
  ),
  listRecentManifests: method<RecentManifest[]>()(payload({})),
  forgetRecentManifest: method<RecentManifest[]>()(payload({ path: filePath })),
} as const;

export const manifestPushes = {} as const;

/** Where the renderer's audio element loads a verified recording from. */
export const MEETING_AUDIO_HOST = 'meeting-audio';
export const MEETING_AUDIO_PATH = '/media/meeting-audio';

/**
 * The URL of a media token: Electron's privileged protocol (tributary-media://meeting-audio/<token>)
 * or the browser-mode host's route (/media/meeting-audio/<token>, which needs the per-launch cookie).
 */
export function mediaUrlForToken(token: string, protocol: string, scheme: string): string {
  const safe = encodeURIComponent(token);
  return protocol === 'app:'
    ? `${scheme}://${MEETING_AUDIO_HOST}/${safe}`
    : `${MEETING_AUDIO_PATH}/${safe}`;
}
