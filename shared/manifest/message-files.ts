// A meeting shared in a chat message (docs/meeting-messages.md): the manifest is one uploaded file and
// its payloads are the other files linked in the same message. Which uploads a manifest's `path`
// references stand for is decided here, by file name, with the rules for what is ambiguous:
// - an upload linked twice (the same upload path) counts once;
// - two different uploads with the same file name: that name is ambiguous, neither is used;
// - a referenced name no linked upload has: missing (the viewer then reports the payload unreadable or
//   the audio missing, as for a local folder without that file);
// - with no `audio.payloadRef` and no audio attachment, the audio is the linked `<manifest base>.opus`
//   or `.ogg`, else the only linked `.opus`/`.ogg` file (the local folder's discovery rule).
// Pure: no I/O. Main downloads what the plan names into a private folder, each file at its reference's
// relative path, and checks that folder like any local one.
import { isPlainObject, unsafePathReason } from './payload-ref';

/** One upload linked in a message: its realm path (`/user_uploads/<realm>/…`) and file name. */
export interface LinkedUpload {
  path: string;
  name: string;
}

export interface PlannedFile {
  /** Where the file goes inside the meeting's folder ('/'-separated, safe, normalised). */
  relativePath: string;
  upload: LinkedUpload;
}

export interface MeetingFilePlan {
  files: PlannedFile[];
  /** Referenced file names that no linked upload has (the audio as "audio (.opus or .ogg)"). */
  missing: string[];
  /** File names linked as two or more different uploads. */
  ambiguous: string[];
}

const AUDIO_MIME = new Set(['audio/ogg', 'audio/opus']);
const AUDIO_FILE = /\.(opus|ogg)$/i;
/** How the card names the audio when the manifest names no file for it. */
export const UNNAMED_AUDIO = 'the recording (.opus or .ogg)';

/** The name an upload path was stored under: its last segment, percent-decoded. */
export function uploadName(path: string): string {
  const last = path.split(/[?#]/)[0]!.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Each upload path once, in the order first linked. */
export function distinctUploads(paths: readonly string[]): LinkedUpload[] {
  const seen = new Set<string>();
  const out: LinkedUpload[] = [];
  for (const path of paths) {
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, name: uploadName(path) });
  }
  return out;
}

/** A safe relative path without `.` and empty segments, or null when unsafe. */
function normalisedRelative(path: string): string | null {
  if (unsafePathReason(path)) return null;
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '' && segment !== '.') parts.push(segment);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

/** Every `payloadRef.path` of the manifest's transcripts, readable transcripts and audio. */
function referencedPaths(doc: Record<string, unknown>): string[] {
  const refs: unknown[] = [];
  for (const list of ['transcripts', 'readableTranscripts'] as const) {
    const items = doc[list];
    if (Array.isArray(items))
      for (const item of items) if (isPlainObject(item)) refs.push(item.payloadRef);
  }
  if (isPlainObject(doc.audio)) refs.push(doc.audio.payloadRef);
  return refs.flatMap((ref) =>
    isPlainObject(ref) && typeof ref.path === 'string' ? [ref.path] : [],
  );
}

function hasAudioSource(doc: Record<string, unknown>): boolean {
  if (isPlainObject(doc.audio) && isPlainObject(doc.audio.payloadRef)) return true;
  const attachments = Array.isArray(doc.attachments) ? doc.attachments : [];
  return attachments.some(
    (a) => isPlainObject(a) && typeof a.mime === 'string' && AUDIO_MIME.has(a.mime.toLowerCase()),
  );
}

/**
 * Which linked uploads the manifest `manifest` (itself one of `linked`) needs, and where each goes in
 * its folder. `doc` is the manifest's parsed JSON (also when it has errors: what can be fetched is).
 */
export function planMeetingFiles(
  doc: Record<string, unknown>,
  manifest: LinkedUpload,
  linked: readonly LinkedUpload[],
): MeetingFilePlan {
  const others = distinctUploads(linked.map((l) => l.path)).filter((l) => l.path !== manifest.path);
  const byName = new Map<string, LinkedUpload[]>();
  for (const upload of others)
    byName.set(upload.name, [...(byName.get(upload.name) ?? []), upload]);
  const plan: MeetingFilePlan = { files: [], missing: [], ambiguous: [] };
  const placed = new Set<string>([manifest.name]);
  const place = (relativePath: string, name: string) => {
    if (placed.has(relativePath)) return;
    const candidates = byName.get(name) ?? [];
    if (candidates.length === 0) {
      if (!plan.missing.includes(name)) plan.missing.push(name);
    } else if (candidates.length > 1) {
      if (!plan.ambiguous.includes(name)) plan.ambiguous.push(name);
    } else {
      placed.add(relativePath);
      plan.files.push({ relativePath, upload: candidates[0]! });
    }
  };
  for (const path of referencedPaths(doc)) {
    // An unsafe path is the decoder's error to report; nothing is fetched for it.
    const relativePath = normalisedRelative(path);
    if (relativePath) place(relativePath, relativePath.split('/').pop()!);
  }
  if (!hasAudioSource(doc)) {
    const base = manifest.name.replace(/\.[^.]*$/, '');
    const audio =
      others.find((u) => u.name === `${base}.opus`) ??
      others.find((u) => u.name === `${base}.ogg`) ??
      (() => {
        const names = new Set(others.filter((u) => AUDIO_FILE.test(u.name)).map((u) => u.name));
        return names.size === 1 ? others.find((u) => names.has(u.name)) : undefined;
      })();
    if (audio) place(audio.name, audio.name);
    else plan.missing.push(UNNAMED_AUDIO);
  }
  return plan;
}

/** What a meeting card shows, read from a manifest's JSON whether or not it is valid. */
export interface MeetingSummary {
  title: string | null;
  createdAtUtc: string | null;
  durationMs: number | null;
  speakers: string[];
  /** Transcript languages, each once, in the manifest's order. */
  languages: string[];
}

export function meetingSummary(doc: Record<string, unknown>): MeetingSummary {
  const meeting = isPlainObject(doc.meeting) ? doc.meeting : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const speakers = Array.isArray(doc.speakers)
    ? doc.speakers.flatMap((s) => (isPlainObject(s) && text(s.label) ? [s.label as string] : []))
    : [];
  const languages: string[] = [];
  for (const list of ['transcripts', 'readableTranscripts'] as const) {
    const items = doc[list];
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      const language = isPlainObject(item) ? text(item.language) : null;
      if (language && !languages.includes(language)) languages.push(language);
    }
  }
  const duration = meeting.durationMs;
  return {
    title: text(meeting.title),
    createdAtUtc: text(meeting.createdAtUtc),
    durationMs:
      Number.isInteger(duration) && (duration as number) >= 0 ? (duration as number) : null,
    speakers,
    languages,
  };
}

/** The manifest kind (meeting-manifest §2.1): what makes a `.json` upload a meeting. */
export const MEETING_KIND = 'fmt-portable-meeting';

/** Whether a linked file's name makes it worth reading as a possible manifest. */
export function isManifestCandidate(name: string): boolean {
  return /\.json$/i.test(name);
}
