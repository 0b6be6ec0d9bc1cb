// Meetings shared in chat messages (docs/meeting-messages.md). The renderer names the upload links of
// one message; main reads each `.json` one (at most MEETING_PROBE_BYTES, with the account's
// credentials) to tell whether it is a meeting manifest, and, when the person opens one, downloads it
// and the files it references into a private per-account folder and opens the viewer's session on
// that folder (the same check as a local manifest). The page never reaches the chat server.
import * as z from 'zod';
import type { Finding, IntegrityOutcome, MeetingSummary } from '../manifest';
import { forAccount, payload } from './common';
import { method, push } from './define';
import type { ManifestSession } from './manifest';

/** The most main reads of a linked `.json` upload to decide whether it is a meeting manifest. */
export const MEETING_PROBE_BYTES = 1024 * 1024;

/**
 * The last check of a meeting main downloaded, known once it was opened: a VerdictInput, so the card
 * shows the viewer's verdict (shared/manifest/verdict.ts).
 */
export interface MeetingVerdict {
  valid: boolean;
  /** The report's errors (the first MAX_CARD_FINDINGS). */
  errors: Finding[];
  integrity: Pick<IntegrityOutcome, 'status' | 'mismatches' | 'reason'>;
  checkedAt: number;
}

/** Findings a card carries at most (the viewer lists them all). */
export const MAX_CARD_FINDINGS = 20;

/** One meeting manifest found among a message's uploads: what its card shows. */
export interface MeetingCardInfo {
  /** The manifest's upload path (`/user_uploads/…`). */
  manifestPath: string;
  manifestName: string;
  summary: MeetingSummary;
  /** Errors the decoder found in the manifest itself, before any payload is read (at most MAX_CARD_FINDINGS). */
  decodeErrors: Finding[];
  /** Files the manifest references that the message does not link. */
  missing: string[];
  /** File names the message links as two different uploads (neither is used). */
  ambiguous: string[];
  /** The last check's outcome, once the meeting was opened on this device. */
  verdict: MeetingVerdict | null;
}

/** Why a linked `.json` upload gets no card (kept for the card's tests and the docs; not shown). */
export type NotAMeetingReason = 'not-json' | 'too-large' | 'other-kind' | 'fetch-failed';

export interface MeetingProbe {
  meetings: MeetingCardInfo[];
  /** `.json` uploads that are not meeting manifests, with why. */
  skipped: Array<{ path: string; reason: NotAMeetingReason; message: string }>;
}

export interface MeetingDownloadProgress {
  downloadId: string;
  /** The file being fetched (its name in the meeting), its place among the files to fetch. */
  file: string;
  fileIndex: number;
  fileCount: number;
  /** Bytes of this file fetched so far, and its size when the server said it. */
  receivedBytes: number;
  totalBytes: number | null;
  state: 'downloading' | 'checking' | 'done' | 'failed' | 'cancelled';
}

/** What the viewer needs to open a meeting from a message (carried by the app's route). */
export interface MeetingRef {
  accountId: string;
  manifestPath: string;
  /** Every upload the message links (the manifest's siblings are found among them). */
  paths: string[];
  /** The card's title, shown while it downloads. */
  title: string | null;
}

export const MeetingIpcCodes = {
  /** The person cancelled the download. */
  cancelled: 'MEETING_DOWNLOAD_CANCELLED',
  /** A file could not be fetched (network, server status, a web page instead of the file). */
  downloadFailed: 'MEETING_DOWNLOAD_FAILED',
  /** The meeting does not fit in the download folder's size cap. */
  tooLarge: 'MEETING_TOO_LARGE',
  /** The named upload is not a meeting manifest (not JSON, too large to be one, another kind). */
  notAMeeting: 'NOT_A_MEETING',
} as const;

const uploadPath = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^\/?user_uploads\//, 'not an upload link');
/** A message links few files; more than this is not a meeting worth reading. */
const uploadPaths = z.array(uploadPath).min(1).max(64);
const downloadId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not a download id');

export const meetingsMethods = {
  /**
   * Which of a message's linked uploads are meeting manifests, with their cards. Each `.json` upload
   * is read once per account (cached by upload path; uploads never change).
   */
  probeMeetingMessage: method<MeetingProbe>()(forAccount({ paths: uploadPaths })),
  /**
   * Downloads the manifest `manifestPath` and the files of `paths` it needs (reusing files already
   * downloaded whose bytes still match) and opens it as the viewer does a local manifest. Progress
   * comes as `meetingDownloadProgress` pushes under `downloadId`; MEETING_DOWNLOAD_CANCELLED when
   * cancelled.
   */
  openMeetingMessage: method<ManifestSession>()(
    forAccount({ manifestPath: uploadPath, paths: uploadPaths, downloadId }),
  ),
  cancelMeetingDownload: method<null>()(payload({ downloadId })),
} as const;

export const meetingsPushes = {
  meetingDownloadProgress: push<MeetingDownloadProgress>(),
} as const;
