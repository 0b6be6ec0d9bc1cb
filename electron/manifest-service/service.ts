// Main-side handlers of the manifest domain (shared/ipc/manifest.ts). A manifest is opened into a
// session: main keeps its path, report and attachments; the renderer gets the report (without
// attachment bytes) and, only when the audio is `verified`, a media token (media.ts).
//
// Which paths the renderer may name: those main handed out itself (the open dialog, a dropped file's
// intake token, a launch request, the recent list). In browser mode there is no native dialog, so the
// page may also type a path (`allowTypedPaths`); that page is ours, behind the per-launch secret.
import { randomBytes } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { MethodHandlers } from '../../shared/ipc/contract';
import { IpcCodes } from '../../shared/ipc/errors';
import {
  ManifestIpcCodes,
  type manifestMethods,
  type ManifestAttachmentInfo,
  type ManifestSession,
  type RecentManifest,
} from '../../shared/ipc/manifest';
import type { ManifestReport, TypedManifest } from '../../shared/manifest';
import type { HashFactory } from '../../shared/ogg';
import { ApiError } from '../api/errors';
import {
  inspectManifest,
  ManifestReadError,
  type DecodedAttachment,
  type ManifestInspection,
  type VerifiedAudio,
} from '../manifest';
import { MeetingAudioStreams } from './media';
import { RecentManifests } from './recent';

/** Native dialogs (Electron); absent in browser mode. Each returns null when the user cancels. */
export interface ManifestDialogs {
  chooseManifest(): Promise<string | null>;
  chooseAudio(defaultFolder: string): Promise<string | null>;
  chooseSaveTarget(defaultName: string): Promise<string | null>;
}

export interface ManifestServiceOptions {
  dataDir: string;
  dialogs?: ManifestDialogs;
  /** Resolves a file token from FileIntake (a dropped file) to its path. */
  resolveToken?: (token: string) => { path: string; temporary: boolean } | undefined;
  /** Gives a token back to FileIntake once its session is closed (deleting a temporary copy). */
  releaseToken?: (token: string) => void;
  /** Browser mode: the page may name any path (there is no native dialog to choose one). */
  allowTypedPaths: boolean;
  /** The audio check's packet hash (node:crypto by default); tests wrap it to act in mid-check. */
  audioHash?: HashFactory;
}

/** The manifest domain's methods this service answers; sharing needs accounts (share.ts). */
export type ManifestMethodName = Exclude<
  keyof typeof manifestMethods,
  'meetingShareFiles' | 'shareMeeting'
>;

interface OpenSession {
  id: string;
  manifestPath: string;
  report: ManifestReport;
  attachments: DecodedAttachment[];
  mediaToken: string | null;
  /** The audio the check verified, kept so "Play anyway" can mint a token for an invalid manifest. */
  verifiedAudio: VerifiedAudio | null;
  /** Which version of the manifest file this is: the key a "Play anyway" choice is remembered by. */
  fileKey: string;
  /** FileIntake tokens whose files this session still reads (released when it closes). */
  heldTokens: string[];
  /** Browser mode copies a dropped file to a temporary file: not worth listing as recent. */
  temporary: boolean;
  /** Listed as recent (false for a meeting downloaded from a message, kept on a re-check too). */
  remember: boolean;
}

interface ChosenPath {
  path: string;
  token?: string;
  temporary: boolean;
  /** False: not listed as recent (default true for anything not temporary). */
  remember?: boolean;
}

/** Sessions kept at once; opening more closes the oldest (each holds a report in memory). */
const MAX_SESSIONS = 8;
const TEXT_PREVIEW_BYTES = 64 * 1024;

// ApiError carries a code and an HTTP-like status through the IPC envelope (electron/ipc/dispatch).
const fail = (code: string, message: string, status: number) =>
  new ApiError('server', code, message, status);

export class ManifestService {
  readonly media = new MeetingAudioStreams();
  private readonly recent: RecentManifests;
  private readonly sessions = new Map<string, OpenSession>();
  private readonly allowedPaths = new Set<string>();
  /**
   * Manifest files (path and version, see fileKey) whose recording the person chose to play although
   * the manifest has errors. Only for this run, and only for that file: a changed file asks again.
   */
  private readonly playAnyway = new Set<string>();

  constructor(private readonly options: ManifestServiceOptions) {
    this.recent = new RecentManifests(options.dataDir);
  }

  /** A path main itself received (command line, second instance): the renderer may open it. */
  allowPath(path: string): void {
    this.allowedPaths.add(resolve(path));
  }

  async open(input: { path?: string; token?: string }): Promise<ManifestSession> {
    const chosen = await this.choosePath(input, () => this.options.dialogs?.chooseManifest());
    return this.openChosen(chosen);
  }

  /**
   * Opens a manifest main already knows (tests, launch requests, a meeting downloaded from a message)
   * without the path policy. `remember: false` keeps it off the recent list (a downloaded meeting's
   * folder is main's own, and may be cleaned up).
   */
  async openPath(
    manifestPath: string,
    audioPath?: string,
    options: { remember?: boolean } = {},
  ): Promise<ManifestSession> {
    return this.openChosen(
      { path: resolve(manifestPath), temporary: false, remember: options.remember },
      audioPath,
    );
  }

  private async openChosen(
    manifest: ChosenPath,
    audioPath?: string,
    heldTokens: string[] = manifest.token ? [manifest.token] : [],
  ): Promise<ManifestSession> {
    let inspection: ManifestInspection;
    try {
      inspection = await inspectManifest(manifest.path, {
        audioPath,
        hash: this.options.audioHash,
      });
    } catch (error) {
      heldTokens.forEach((token) => this.options.releaseToken?.(token));
      if (error instanceof ManifestReadError)
        throw fail(ManifestIpcCodes.unreadable, error.message, 404);
      throw error;
    }
    const { report, attachments, verifiedAudio } = inspection;
    const fileKey = await manifestFileKey(manifest.path);
    // Only `verified` audio comes with verifiedAudio: the file identity taken from the handle it was
    // checked through, or the checked attachment bytes. Nothing is looked up by path again here. An
    // invalid manifest cannot vouch for its audio: that plays only after "Play anyway" (the verdict).
    const playable = verifiedAudio && (report.valid || this.playAnyway.has(fileKey));
    const session: OpenSession = {
      id: randomBytes(18).toString('base64url'),
      manifestPath: manifest.path,
      report,
      attachments,
      mediaToken: playable ? this.media.register(verifiedAudio) : null,
      verifiedAudio,
      fileKey,
      heldTokens,
      temporary: manifest.temporary,
      remember: manifest.remember !== false,
    };
    this.sessions.set(session.id, session);
    this.evictOldSessions();
    if (!manifest.temporary && manifest.remember !== false) {
      this.recent.remember({
        path: manifest.path,
        title: report.manifest?.meeting.title ?? null,
        status: report.integrity.status,
        openedAt: Date.now(),
      });
    }
    return this.describe(session);
  }

  async chooseAudio(input: {
    sessionId: string;
    path?: string;
    token?: string;
  }): Promise<ManifestSession> {
    const old = this.session(input.sessionId);
    const audio = await this.choosePath(input, () =>
      this.options.dialogs?.chooseAudio(resolve(old.manifestPath, '..')),
    );
    // The new session takes over the manifest's token (a dropped manifest's copy must stay); the
    // previous audio token, if any, is given back.
    const manifestTokens = old.heldTokens.slice(0, 1);
    this.close(old.id, manifestTokens);
    return this.openChosen(
      { path: old.manifestPath, temporary: old.temporary, remember: old.remember },
      audio.path,
      audio.token ? [...manifestTokens, audio.token] : manifestTokens,
    );
  }

  /**
   * The person chose "Play anyway" for an invalid manifest whose audio matched its integrity values:
   * the recording becomes playable, and stays so when this same file is opened again.
   */
  playAnywayFor(sessionId: string): ManifestSession {
    const session = this.session(sessionId);
    if (!session.verifiedAudio) {
      throw fail(
        ManifestIpcCodes.notPlayable,
        'Only audio that matches the manifest can be played',
        409,
      );
    }
    this.playAnyway.add(session.fileKey);
    session.mediaToken ??= this.media.register(session.verifiedAudio);
    return this.describe(session);
  }

  close(sessionId: string, keepTokens: string[] = []): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.media.revoke(session.mediaToken);
    this.sessions.delete(sessionId);
    for (const token of session.heldTokens) {
      if (!keepTokens.includes(token)) this.options.releaseToken?.(token);
    }
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id);
    this.media.revokeAll();
  }

  async saveAttachment(sessionId: string, index: number): Promise<{ savedTo: string }> {
    const attachment = this.attachment(sessionId, index);
    if (!this.options.dialogs) {
      throw fail(
        IpcCodes.unsupported,
        'No native save dialog in browser mode; the page downloads the attachment instead.',
        400,
      );
    }
    const target = await this.options.dialogs.chooseSaveTarget(safeFileName(attachment.name));
    if (!target) throw fail(ManifestIpcCodes.cancelled, 'Saving was cancelled', 400);
    await writeFile(target, attachment.bytes);
    return { savedTo: target };
  }

  attachment(sessionId: string, index: number): { name: string; mime: string; bytes: Uint8Array } {
    const item = this.session(sessionId).attachments[index];
    if (!item) throw fail(ManifestIpcCodes.unknownAttachment, `No attachment #${index}`, 404);
    if (!item.bytes) {
      throw fail(
        ManifestIpcCodes.unknownAttachment,
        `Attachment "${item.name}" is not valid base64`,
        422,
      );
    }
    return { name: item.name, mime: item.mime, bytes: item.bytes };
  }

  /** The manifest file a session opened (sharing posts that file and those beside it). */
  manifestPathOf(sessionId: string): string {
    return this.session(sessionId).manifestPath;
  }

  listRecent(): RecentManifest[] {
    return this.recent.list();
  }

  forgetRecent(path: string): RecentManifest[] {
    return this.recent.forget(path);
  }

  get handlers(): Pick<MethodHandlers, ManifestMethodName> {
    return {
      openManifest: (input) => this.open(input),
      chooseManifestAudio: (input) => this.chooseAudio(input),
      playManifestAnyway: ({ sessionId }) => this.playAnywayFor(sessionId),
      closeManifest: ({ sessionId }) => {
        this.close(sessionId);
        return null;
      },
      saveManifestAttachment: ({ sessionId, index }) => this.saveAttachment(sessionId, index),
      getManifestAttachment: ({ sessionId, index }) => {
        const { name, mime, bytes } = this.attachment(sessionId, index);
        return { name, mime, contentBase64: Buffer.from(bytes).toString('base64') };
      },
      listRecentManifests: () => this.listRecent(),
      forgetRecentManifest: ({ path }) => this.forgetRecent(path),
    };
  }

  private session(sessionId: string): OpenSession {
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw fail(ManifestIpcCodes.unknownSession, 'This manifest is no longer open', 404);
    }
    return session;
  }

  /** The file a call names: a token from FileIntake, a path main allows, or the dialog's choice. */
  private async choosePath(
    input: { path?: string; token?: string },
    dialog: () => Promise<string | null> | undefined,
  ): Promise<ChosenPath> {
    if (input.path !== undefined && input.token !== undefined) {
      throw fail(IpcCodes.invalidPayload, 'Give either a path or a token, not both', 400);
    }
    if (input.token !== undefined) {
      const entry = this.options.resolveToken?.(input.token);
      if (!entry) throw fail(IpcCodes.invalidPayload, 'Unknown file token', 400);
      return { path: entry.path, token: input.token, temporary: entry.temporary };
    }
    if (input.path !== undefined) {
      const path = resolve(input.path);
      if (
        !this.options.allowTypedPaths &&
        !this.allowedPaths.has(path) &&
        !this.recent.includes(path)
      ) {
        throw fail(
          ManifestIpcCodes.pathNotAllowed,
          'Open files through the dialog, by dropping them, or from the recent list',
          403,
        );
      }
      return { path, temporary: false };
    }
    const chosen = dialog();
    if (!chosen) {
      throw fail(
        IpcCodes.unsupported,
        'No native file dialog in browser mode; type the path instead.',
        400,
      );
    }
    const path = await chosen;
    if (!path) throw fail(ManifestIpcCodes.cancelled, 'No file was chosen', 400);
    return { path, temporary: false };
  }

  private describe(session: OpenSession): ManifestSession {
    return {
      sessionId: session.id,
      report: forTheRenderer(session.report),
      attachments: session.attachments.map((item, index): ManifestAttachmentInfo => {
        const isText = /^text\/|^application\/json\b/i.test(item.mime);
        return {
          index,
          name: item.name,
          mime: item.mime,
          byteLength: item.bytes?.length ?? null,
          textPreview:
            isText && item.bytes && item.bytes.length <= TEXT_PREVIEW_BYTES
              ? new TextDecoder().decode(item.bytes)
              : null,
        };
      }),
      mediaToken: session.mediaToken,
      mediaType: session.mediaToken ? 'audio/ogg' : null,
      temporaryCopy: session.temporary,
    };
  }

  private evictOldSessions(): void {
    for (const id of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.close(id);
    }
  }
}

/**
 * The report as the renderer gets it: without attachment contents (they can be large, an embedded
 * recording, and stay in main), and with members nested deeper than MAX_SENT_DEPTH cut off. An
 * unknown member may nest thousands of levels deep (the decoder keeps and ignores it), and both
 * structured clone (Electron IPC) and JSON (browser mode) overflow the stack on that; the viewer
 * shows at most a few levels of such members anyway.
 */
function forTheRenderer(report: ManifestReport): ManifestReport {
  if (!report.manifest) return report;
  const manifest = capDepth(report.manifest, MAX_SENT_DEPTH) as TypedManifest;
  if (manifest.attachments) {
    manifest.attachments = manifest.attachments.map((item) => ({ ...item, contentBase64: '' }));
  }
  return { ...report, manifest };
}

const MAX_SENT_DEPTH = 48;

/** A copy of JSON data with everything below `levels` levels replaced by "…". */
function capDepth(value: unknown, levels: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (levels === 0) return '…';
  if (Array.isArray(value)) return value.map((item) => capDepth(item, levels - 1));
  // fromEntries defines own members, so a "__proto__" member stays a member.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, capDepth(item, levels - 1)]),
  );
}

/** The manifest file's path and version; a file that changed (or is gone) gets another key. */
async function manifestFileKey(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return [path, info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs].join('\0');
  } catch {
    return `${path}\0${randomBytes(8).toString('hex')}`;
  }
}

/** A default name for the save dialog: the attachment's last path segment, without separators. */
function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const cleaned = [...last]
    .map((char) => (char.charCodeAt(0) < 0x20 || '<>:"|?*'.includes(char) ? '_' : char))
    .join('')
    .replace(/^\.+/, '');
  return cleaned || 'attachment';
}
