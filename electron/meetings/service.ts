// Main's side of meetings shared in messages (shared/ipc/meetings.ts, docs/meeting-messages.md).
// Probing: each `.json` upload a message links is read once per account (at most MEETING_PROBE_BYTES,
// cached by upload path: an upload's bytes never change) and is a meeting when its `kind` says so.
// Opening: the manifest and the files its plan names are downloaded into the account's private folder
// (folders.ts) and the folder is opened by the manifest service, through the same decoder and
// integrity check as a local manifest; only `verified` audio gets a media token, so only it plays.
import type { MethodHandlers, PushSink } from '../../shared/ipc/contract';
import {
  MAX_CARD_FINDINGS,
  MEETING_PROBE_BYTES,
  MeetingIpcCodes,
  type MeetingCardInfo,
  type MeetingDownloadProgress,
  type MeetingProbe,
  type MeetingVerdict,
  type NotAMeetingReason,
  type meetingsMethods,
} from '../../shared/ipc/meetings';
import type { ManifestSession } from '../../shared/ipc/manifest';
import {
  decodeManifest,
  distinctUploads,
  isManifestCandidate,
  isPlainObject,
  meetingSummary,
  MEETING_KIND,
  planMeetingFiles,
  type Finding,
  type LinkedUpload,
} from '../../shared/manifest';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { ManifestService } from '../manifest-service';
import { MAX_MANIFEST_BYTES } from '../manifest';
import { uploadPathId } from '../media/open-upload';
import { readUploadHead, requestUpload, type FetchLike } from './fetch-upload';
import { MeetingFolders, MeetingTooLarge, type FolderState } from './folders';

type ProbeOutcome =
  | { kind: 'meeting'; doc: Record<string, unknown>; decodeErrors: Finding[] }
  | { kind: 'skip'; reason: NotAMeetingReason; message: string };

export interface MeetingMessagesOptions {
  /** Where DATA/meetings lives. */
  meetingsDir: string;
  push: PushSink;
  /** The signed-in client of an account (throws for an unknown or signed-out one). */
  client(accountId: string): ApiClient;
  manifests: ManifestService;
  /** Per-account cap of downloaded meetings (default 2 GiB). */
  capBytes?: number;
  /** Tests inject faults into the realm's answers here. */
  fetch?: FetchLike;
}

/** Probe results kept (each holds a manifest's parsed JSON, at most 1 MB of text). */
const MAX_PROBES = 200;
/** At most this often a download's progress is pushed. */
const PROGRESS_EVERY_MS = 100;

const fail = (code: string, message: string, status: number) =>
  new ApiError('server', code, message, status);

export class MeetingMessages {
  readonly folders: MeetingFolders;
  private readonly probes = new Map<string, Promise<ProbeOutcome>>();
  private readonly downloads = new Map<string, AbortController>();
  /** Per folder, the last open's turn (settled, never rejecting). */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly options: MeetingMessagesOptions) {
    this.folders = new MeetingFolders(options.meetingsDir, options.capBytes);
  }

  async probe(accountId: string, paths: string[]): Promise<MeetingProbe> {
    const client = this.options.client(accountId);
    const linked = this.linked(client, paths);
    const result: MeetingProbe = { meetings: [], skipped: [] };
    const candidates = linked.filter((upload) => isManifestCandidate(upload.name));
    const outcomes = await Promise.all(candidates.map((u) => this.read(accountId, client, u)));
    candidates.forEach((upload, index) => {
      const outcome = outcomes[index]!;
      if (outcome.kind === 'skip') {
        result.skipped.push({
          path: upload.path,
          reason: outcome.reason,
          message: outcome.message,
        });
        return;
      }
      result.meetings.push(this.card(accountId, upload, linked, outcome));
    });
    return result;
  }

  async open(
    accountId: string,
    manifestPath: string,
    paths: string[],
    downloadId: string,
  ): Promise<ManifestSession> {
    if (this.downloads.has(downloadId))
      throw fail('BAD_REQUEST', 'This download id is already in use', 400);
    // Registered before the first await, so a cancel that follows the open at once is not lost.
    const controller = new AbortController();
    this.downloads.set(downloadId, controller);
    try {
      return await this.openRegistered(accountId, manifestPath, paths, downloadId, controller);
    } finally {
      this.downloads.delete(downloadId);
    }
  }

  private async openRegistered(
    accountId: string,
    manifestPath: string,
    paths: string[],
    downloadId: string,
    controller: AbortController,
  ): Promise<ManifestSession> {
    const client = this.options.client(accountId);
    const linked = this.linked(client, [manifestPath, ...paths]);
    const manifest = linked[0];
    if (!manifest) throw fail(MeetingIpcCodes.notAMeeting, 'Not an upload of this realm', 400);
    const probed = await this.read(accountId, client, manifest);
    if (probed.kind === 'skip') throw fail(MeetingIpcCodes.notAMeeting, probed.message, 422);
    const plan = planMeetingFiles(probed.doc, manifest, linked);
    const wanted = [{ relativePath: manifest.name, upload: manifest }, ...plan.files];
    const folder = this.folders.folderFor(accountId, manifest.path);
    let progress: MeetingDownloadProgress = {
      downloadId,
      file: manifest.name,
      fileIndex: 0,
      fileCount: wanted.length,
      receivedBytes: 0,
      totalBytes: null,
      state: 'downloading',
    };
    const report = (next: Partial<MeetingDownloadProgress>) => {
      progress = { ...progress, ...next };
      this.options.push('meetingDownloadProgress', progress);
    };
    try {
      // One open of a folder at a time: another's sweep would delete this one's live `.part` files,
      // and both would write state.json. Eviction skips the folder meanwhile.
      return await this.inTurn(folder, async () => {
        controller.signal.throwIfAborted();
        const state = this.folders.state(folder, manifest.path);
        await this.folders.sweepParts(folder);
        for (const [index, item] of wanted.entries()) {
          if (
            await this.folders.reusable(folder, item.relativePath, state.files[item.relativePath])
          )
            continue;
          await this.download(accountId, client, folder, state, item, controller.signal, (p) =>
            report({ ...p, fileIndex: index }),
          );
        }
        // The open time (for the cap's least-recently-opened order) is written with the verdict below.
        state.openedAt = Date.now();
        report({ state: 'checking' });
        const session = await this.options.manifests.openPath(
          this.folders.fileAt(folder, manifest.name)!,
          undefined,
          { remember: false },
        );
        state.verdict = verdictOf(session);
        this.folders.saveState(folder, state);
        report({ state: 'done' });
        return session;
      });
    } catch (error) {
      if (controller.signal.aborted) {
        report({ state: 'cancelled' });
        throw fail(MeetingIpcCodes.cancelled, 'The download was cancelled', 400);
      }
      report({ state: 'failed' });
      if (error instanceof MeetingTooLarge)
        throw fail(MeetingIpcCodes.tooLarge, error.message, 413);
      throw error;
    }
  }

  /** Runs `fn` once every earlier open of `folder` has settled, with the folder kept from eviction. */
  private inTurn<T>(folder: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(folder) ?? Promise.resolve();
    const turn = previous.then(async () => {
      this.folders.busy.add(folder);
      try {
        return await fn();
      } finally {
        this.folders.busy.delete(folder);
      }
    });
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(folder, settled);
    void settled.then(() => {
      if (this.turns.get(folder) === settled) this.turns.delete(folder);
    });
    return turn;
  }

  cancel(downloadId: string): void {
    this.downloads.get(downloadId)?.abort();
  }

  /** Deletes an account's downloaded meetings and forgets what was read for it. */
  async forgetAccount(accountId: string): Promise<void> {
    for (const key of [...this.probes.keys()])
      if (key.startsWith(`${accountId}\n`)) this.probes.delete(key);
    await this.folders.removeAccount(accountId);
  }

  /** The message's links that are uploads of this realm, each once, with a leading slash. */
  private linked(client: ApiClient, paths: string[]): LinkedUpload[] {
    return distinctUploads(
      paths
        .map((path) => `/${path.replace(/^\/+/, '')}`)
        .filter((path) => uploadPathId(client.site, path) !== null),
    );
  }

  private read(accountId: string, client: ApiClient, upload: LinkedUpload): Promise<ProbeOutcome> {
    const key = `${accountId}\n${upload.path}`;
    let pending = this.probes.get(key);
    if (!pending) {
      pending = probeUpload(client, upload, this.options.fetch);
      this.probes.set(key, pending);
      if (this.probes.size > MAX_PROBES) this.probes.delete(this.probes.keys().next().value!);
      // A failed fetch may work next time: only answers about the bytes are kept.
      void pending.then((outcome) => {
        if (outcome.kind === 'skip' && outcome.reason === 'fetch-failed') this.probes.delete(key);
      });
    }
    return pending;
  }

  private card(
    accountId: string,
    upload: LinkedUpload,
    linked: LinkedUpload[],
    outcome: Extract<ProbeOutcome, { kind: 'meeting' }>,
  ): MeetingCardInfo {
    const plan = planMeetingFiles(outcome.doc, upload, linked);
    const folder = this.folders.folderFor(accountId, upload.path);
    return {
      manifestPath: upload.path,
      manifestName: upload.name,
      summary: meetingSummary(outcome.doc),
      decodeErrors: outcome.decodeErrors,
      missing: plan.missing,
      ambiguous: plan.ambiguous,
      verdict: this.folders.state(folder, upload.path).verdict,
    };
  }

  private async download(
    accountId: string,
    client: ApiClient,
    folder: string,
    state: FolderState,
    item: { relativePath: string; upload: LinkedUpload },
    signal: AbortSignal,
    report: (progress: Partial<MeetingDownloadProgress>) => void,
  ): Promise<void> {
    // Not listed while it is being replaced: a crash here leaves nothing that looks reusable.
    delete state.files[item.relativePath];
    this.folders.saveState(folder, state);
    const { body, length } = await requestUpload(client, item.upload.path, item.upload.name, {
      signal,
      fetch: this.options.fetch,
    });
    const held = Object.values(state.files).reduce((sum, f) => sum + f.size, 0);
    let room: number;
    try {
      room = await this.folders.makeRoom(accountId, folder, held, length ?? 0);
    } catch (error) {
      await body.cancel();
      throw error;
    }
    const isManifest = item.upload.path === state.manifestUpload;
    let received = 0;
    let lastPush = 0;
    report({ file: item.relativePath, receivedBytes: 0, totalBytes: length, state: 'downloading' });
    state.files[item.relativePath] = await this.folders.write(
      folder,
      item.relativePath,
      item.upload.path,
      body,
      {
        limit: isManifest ? Math.min(room, MAX_MANIFEST_BYTES) : room,
        signal,
        onBytes: (count) => {
          received += count;
          const now = Date.now();
          if (now - lastPush < PROGRESS_EVERY_MS) return;
          lastPush = now;
          report({ receivedBytes: received });
        },
      },
    );
    report({ receivedBytes: received });
    this.folders.saveState(folder, state);
  }

  get handlers(): Pick<MethodHandlers, keyof typeof meetingsMethods> {
    return {
      probeMeetingMessage: ({ accountId, paths }) => this.probe(accountId, paths),
      openMeetingMessage: (input) =>
        this.open(input.accountId, input.manifestPath, input.paths, input.downloadId),
      cancelMeetingDownload: ({ downloadId }) => {
        this.cancel(downloadId);
        return null;
      },
    };
  }
}

/** Reads one candidate (capped before anything is parsed) and decides whether it is a meeting. */
async function probeUpload(
  client: ApiClient,
  upload: LinkedUpload,
  fetchImpl?: FetchLike,
): Promise<ProbeOutcome> {
  let head;
  try {
    head = await readUploadHead(client, upload.path, upload.name, MEETING_PROBE_BYTES, {
      fetch: fetchImpl,
    });
  } catch (error) {
    return { kind: 'skip', reason: 'fetch-failed', message: (error as Error).message };
  }
  if (!head.complete) {
    return {
      kind: 'skip',
      reason: 'too-large',
      message: `${upload.name} is larger than ${MEETING_PROBE_BYTES} bytes, more than a meeting card reads`,
    };
  }
  const decoded = decodeManifest(head.bytes);
  const doc = decoded.document;
  if (!doc) {
    const notJson = decoded.errors.some((f) => f.code === 'not-json');
    // An unsupported version of a meeting manifest is still a meeting: the viewer says why.
    if (notJson)
      return { kind: 'skip', reason: 'not-json', message: `${upload.name} is not a JSON object` };
  }
  const parsed = doc ?? parseObject(head.bytes);
  if (!parsed || parsed.kind !== MEETING_KIND)
    return {
      kind: 'skip',
      reason: 'other-kind',
      message: `${upload.name} is not a meeting manifest`,
    };
  return {
    kind: 'meeting',
    doc: parsed,
    decodeErrors: decoded.errors.slice(0, MAX_CARD_FINDINGS),
  };
}

/** The JSON object of bytes the decoder stopped on (an unsupported version), or null. */
function parseObject(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

export function verdictOf(session: ManifestSession): MeetingVerdict {
  const { report } = session;
  const { status, mismatches, reason } = report.integrity;
  return {
    valid: report.valid,
    errors: report.errors.slice(0, MAX_CARD_FINDINGS),
    integrity: { status, mismatches, ...(reason === undefined ? {} : { reason }) },
    checkedAt: Date.now(),
  };
}
