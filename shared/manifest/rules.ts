// Rules between members that a per-member schema cannot express (manifest-decisions §1-§3, §6):
// id uniqueness, source links and cycles, payload references, and the warnings. They run on the raw
// document and look only at members of the right type, so they also work on invalid documents.
import type { FindingSink, PathSegment } from './findings';
import { hasMember, isPlainObject, unsafePathReason } from './payload-ref';
import { normalizeTranscriptFormat } from './transcripts/formats';

type Entry = {
  list: 'transcripts' | 'readableTranscripts';
  index: number;
  obj: Record<string, unknown>;
};

const entryPath = (e: Entry): PathSegment[] => [e.list, e.index];

function entriesOf(doc: Record<string, unknown>, list: Entry['list']): Entry[] {
  const items = doc[list];
  if (!Array.isArray(items)) return [];
  const out: Entry[] = [];
  items.forEach((obj, index) => {
    if (isPlainObject(obj)) out.push({ list, index, obj });
  });
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function checkRelations(doc: Record<string, unknown>, sink: FindingSink): void {
  const transcripts = entriesOf(doc, 'transcripts');
  const readables = entriesOf(doc, 'readableTranscripts');
  checkIds([...transcripts, ...readables], sink);
  checkSources(transcripts, readables, sink);
  checkCycles(transcripts, sink);
  checkPayloadRefs(doc, [...transcripts, ...readables], sink);
  checkDefaults(transcripts, sink);
  checkDefaults(readables, sink);
  checkFormats([...transcripts, ...readables], sink);
  checkMeeting(doc, sink);
  checkAudioAgainstIntegrity(doc, sink);
}

function checkIds(entries: Entry[], sink: FindingSink): void {
  const first = new Map<string, Entry>();
  for (const e of entries) {
    const id = str(e.obj.id);
    if (id === undefined) continue;
    const earlier = first.get(id);
    if (earlier) {
      sink.error(
        'duplicate-id',
        entryPath(e),
        `id "${id}" is already used by /${earlier.list}/${earlier.index}`,
      );
    } else {
      first.set(id, e);
    }
  }
}

function checkSources(transcripts: Entry[], readables: Entry[], sink: FindingSink): void {
  const transcriptIds = new Set(
    transcripts.map((e) => str(e.obj.id)).filter((id) => id !== undefined),
  );
  const readableIds = new Set(readables.map((e) => str(e.obj.id)).filter((id) => id !== undefined));
  for (const e of [...transcripts, ...readables]) {
    const role = str(e.obj.role);
    const carriesSource = hasMember(e.obj, 'sourceTranscriptId');
    if (e.list === 'transcripts' && role === 'raw-asr' && carriesSource) {
      sink.error(
        'raw-asr-has-source',
        entryPath(e),
        'a raw-asr transcript must not carry sourceTranscriptId',
      );
    }
    const source = str(e.obj.sourceTranscriptId);
    if (source !== undefined && !transcriptIds.has(source)) {
      const hint = readableIds.has(source)
        ? ' (it names a readable transcript, not a transcript)'
        : '';
      sink.error(
        'unknown-source',
        entryPath(e),
        `sourceTranscriptId "${source}" names no entry of /transcripts${hint}`,
      );
    }
    if (
      e.list === 'transcripts' &&
      !carriesSource &&
      (role === 'human-corrected' || role === 'translation')
    ) {
      sink.warning(
        'source-expected',
        entryPath(e),
        `a ${role} transcript is expected to carry sourceTranscriptId`,
      );
    }
  }
}

/** Reports each loop of sourceTranscriptId links once, at its entry with the lowest index. */
function checkCycles(transcripts: Entry[], sink: FindingSink): void {
  const byId = new Map<string, Entry>();
  for (const e of transcripts) {
    const id = str(e.obj.id);
    if (id !== undefined && !byId.has(id)) byId.set(id, e);
  }
  // A raw-asr entry's link is already an error of its own (raw-asr-has-source), so it is not
  // followed: the loop it would close is that same mistake, reported once.
  const next = (e: Entry): Entry | undefined => {
    if (e.obj.role === 'raw-asr') return undefined;
    const source = str(e.obj.sourceTranscriptId);
    return source === undefined ? undefined : byId.get(source);
  };
  // Iterative colouring: 0 unvisited, 1 on the current walk, 2 done. Linear in the entries.
  const state = new Map<Entry, number>();
  for (const start of byId.values()) {
    if (state.get(start)) continue;
    const walk: Entry[] = [];
    let cur: Entry | undefined = start;
    while (cur && !state.get(cur)) {
      state.set(cur, 1);
      walk.push(cur);
      cur = next(cur);
    }
    if (cur && state.get(cur) === 1) {
      const loop = walk.slice(walk.indexOf(cur));
      const head = loop.reduce((a, b) => (b.index < a.index ? b : a));
      const ids = [...loop.map((e) => str(e.obj.id)), str(cur.obj.id)].join(' -> ');
      sink.error('source-cycle', entryPath(head), `sourceTranscriptId links loop: ${ids}`);
    }
    for (const e of walk) state.set(e, 2);
  }
}

function checkPayloadRefs(doc: Record<string, unknown>, entries: Entry[], sink: FindingSink): void {
  const attachmentNames = new Set<string>();
  if (Array.isArray(doc.attachments)) {
    for (const a of doc.attachments)
      if (isPlainObject(a) && typeof a.name === 'string') attachmentNames.add(a.name);
  }
  const refs: { ref: unknown; path: PathSegment[] }[] = entries.map((e) => ({
    ref: e.obj.payloadRef,
    path: [...entryPath(e), 'payloadRef'],
  }));
  if (isPlainObject(doc.audio) && hasMember(doc.audio, 'payloadRef')) {
    refs.push({ ref: doc.audio.payloadRef, path: ['audio', 'payloadRef'] });
  }
  for (const { ref, path } of refs) {
    if (!isPlainObject(ref)) continue; // missing-member / wrong-type come from the schema
    const hasPath = hasMember(ref, 'path');
    const hasAttachment = hasMember(ref, 'attachment');
    if (hasPath === hasAttachment) {
      sink.error(
        'bad-payload-ref',
        path,
        hasPath
          ? 'a payloadRef has both path and attachment; exactly one is allowed'
          : 'a payloadRef needs exactly one of path and attachment',
      );
      continue;
    }
    if (typeof ref.path === 'string') {
      const reason = unsafePathReason(ref.path);
      if (reason)
        sink.error(
          'bad-payload-ref',
          [...path, 'path'],
          `unsafe payload path ${JSON.stringify(ref.path)}: ${reason}`,
        );
    }
    if (typeof ref.attachment === 'string' && !attachmentNames.has(ref.attachment)) {
      sink.error(
        'bad-payload-ref',
        [...path, 'attachment'],
        `no attachment is named ${JSON.stringify(ref.attachment)}`,
      );
    }
  }
}

function checkDefaults(entries: Entry[], sink: FindingSink): void {
  const defaultsByLanguage = new Map<string, Entry>();
  for (const e of entries) {
    if (e.obj.default !== true) continue;
    const language = str(e.obj.language);
    const key = language === undefined ? '\0none' : language;
    const earlier = defaultsByLanguage.get(key);
    if (earlier) {
      const lang = language === undefined ? 'without a language' : `for language "${language}"`;
      sink.warning(
        'multiple-defaults',
        entryPath(e),
        `another default ${lang} besides /${earlier.list}/${earlier.index}`,
      );
    } else {
      defaultsByLanguage.set(key, e);
    }
  }
}

function checkFormats(entries: Entry[], sink: FindingSink): void {
  for (const e of entries) {
    const format = str(e.obj.format);
    if (format && normalizeTranscriptFormat(format) === null) {
      sink.warning(
        'unsupported-format',
        [...entryPath(e), 'format'],
        `format "${format}" is not supported; the transcript cannot be shown`,
      );
    }
  }
}

function checkMeeting(doc: Record<string, unknown>, sink: FindingSink): void {
  const meeting = doc.meeting;
  if (
    isPlainObject(meeting) &&
    hasMember(meeting, 'attemptNumber') &&
    !hasMember(meeting, 'jobId')
  ) {
    sink.warning(
      'attempt-without-job',
      ['meeting', 'attemptNumber'],
      'attemptNumber is given without jobId',
    );
  }
}

const SHARED_AUDIO_MEMBERS = ['sampleRate', 'channels', 'sampleCount', 'durationMs'] as const;

function checkAudioAgainstIntegrity(doc: Record<string, unknown>, sink: FindingSink): void {
  const { audio, integrity } = doc;
  if (!isPlainObject(audio) || !isPlainObject(integrity)) return;
  for (const member of SHARED_AUDIO_MEMBERS) {
    if (!hasMember(audio, member) || !hasMember(integrity, member)) continue;
    if (audio[member] !== integrity[member]) {
      sink.warning(
        'audio-disagrees',
        ['audio', member],
        `audio.${member} (${JSON.stringify(audio[member])}) disagrees with integrity.${member} (${JSON.stringify(integrity[member])})`,
      );
    }
  }
}
