// Which uploads of a message a meeting manifest uses (shared/manifest/message-files.ts): references by
// file name, the audio discovery rule, and the ambiguity rules of docs/meeting-messages.md.
import { describe, expect, it } from 'vitest';
import {
  distinctUploads,
  meetingSummary,
  planMeetingFiles,
  UNNAMED_AUDIO,
  uploadName,
} from '../../shared/manifest';
import { WEEKLY_SHARED_FILES, validManifest, type JsonObject } from './support/fixtures';

/** The files beside the manifest (weekly-planning and its variants). */
const PAYLOADS = WEEKLY_SHARED_FILES.slice(1);

const up = (name: string, dir = 'aa') => `/user_uploads/2/${dir}/${name}`;
const linked = (...paths: string[]) => distinctUploads(paths);

function plan(doc: JsonObject, manifestPath: string, paths: string[]) {
  const uploads = linked(...paths);
  return planMeetingFiles(
    doc,
    uploads.find((u) => u.path === manifestPath)!,
    uploads,
  );
}

describe('planMeetingFiles', () => {
  it('places every referenced file by name at its relative path', () => {
    const doc = validManifest();
    const paths = [up('manifest.json'), ...PAYLOADS.map((n, i) => up(n, `b${i}`))];
    const result = plan(doc, paths[0]!, paths);
    expect(result.missing).toEqual([]);
    expect(result.ambiguous).toEqual([]);
    expect(result.files.map((f) => [f.relativePath, f.upload.path])).toEqual([
      ['transcript.raw.vtt', up('transcript.raw.vtt', 'b1')],
      ['transcript.corrected.json', up('transcript.corrected.json', 'b2')],
      ['transcript.es.txt', up('transcript.es.txt', 'b3')],
      ['transcript.readable.txt', up('transcript.readable.txt', 'b4')],
      ['recording.opus', up('recording.opus', 'b0')],
    ]);
  });

  it('matches a reference in a subfolder by its file name and keeps the subfolder', () => {
    const doc = validManifest() as { transcripts: Array<{ payloadRef: JsonObject }> } & JsonObject;
    doc.transcripts[0]!.payloadRef = { path: './text/raw/transcript.raw.vtt' };
    const paths = [up('manifest.json'), up('transcript.raw.vtt', 'cc')];
    const result = plan(doc, paths[0]!, paths);
    expect(result.files[0]).toEqual({
      relativePath: 'text/raw/transcript.raw.vtt',
      upload: { path: up('transcript.raw.vtt', 'cc'), name: 'transcript.raw.vtt' },
    });
  });

  it('counts an upload linked twice once, and refuses two uploads with one name', () => {
    const doc = validManifest();
    const paths = [
      up('manifest.json'),
      up('recording.opus', 'r1'),
      up('recording.opus', 'r1'),
      up('transcript.raw.vtt', 'v1'),
      up('transcript.raw.vtt', 'v2'),
    ];
    const result = plan(doc, paths[0]!, paths);
    expect(result.ambiguous).toEqual(['transcript.raw.vtt']);
    expect(result.files.map((f) => f.relativePath)).toEqual(['recording.opus']);
    expect(result.missing).toEqual([
      'transcript.corrected.json',
      'transcript.es.txt',
      'transcript.readable.txt',
    ]);
  });

  it('fetches nothing for a path that leaves the folder (the decoder reports it)', () => {
    const doc = validManifest() as { transcripts: Array<{ payloadRef: JsonObject }> } & JsonObject;
    doc.transcripts[0]!.payloadRef = { path: '../escape.vtt' };
    const paths = [up('manifest.json'), up('escape.vtt')];
    const result = plan(doc, paths[0]!, paths);
    expect(result.files.map((f) => f.relativePath)).not.toContain('escape.vtt');
    expect(result.missing).not.toContain('escape.vtt');
  });

  it('without audio.payloadRef, takes <manifest base>.opus, else the only linked recording', () => {
    const doc = validManifest() as { audio: JsonObject } & JsonObject;
    delete doc.audio.payloadRef;
    const base = [up('weekly.json'), up('weekly.opus', 'w'), up('other.ogg', 'o')];
    expect(plan(doc, base[0]!, base).files.at(-1)!.upload.name).toBe('weekly.opus');
    const only = [up('weekly.json'), up('other.ogg', 'o')];
    expect(plan(doc, only[0]!, only).files.at(-1)!.upload.name).toBe('other.ogg');
    const two = [up('weekly.json'), up('a.opus', 'a'), up('b.opus', 'b')];
    expect(plan(doc, two[0]!, two).missing).toContain(UNNAMED_AUDIO);
  });

  it('two manifests in one message each resolve against the other uploads', () => {
    const first = validManifest();
    const second = validManifest() as { audio: { payloadRef: JsonObject } } & JsonObject;
    second.audio.payloadRef = { path: 'second.opus' };
    const paths = [
      up('first.json'),
      up('second.json', 's'),
      up('recording.opus'),
      up('second.opus'),
    ];
    expect(plan(first, paths[0]!, paths).files.map((f) => f.upload.name)).toEqual([
      'recording.opus',
    ]);
    expect(plan(second, paths[1]!, paths).files.map((f) => f.upload.name)).toEqual(['second.opus']);
  });
});

describe('the card summary', () => {
  it('reads title, date, duration, speakers and languages, also from an invalid manifest', () => {
    expect(meetingSummary(validManifest())).toEqual({
      title: 'Weekly planning',
      createdAtUtc: '2026-11-20T10:00:00Z',
      durationMs: 20452,
      speakers: ['Ana', 'Ben'],
      languages: ['en', 'es'],
    });
    expect(meetingSummary({ meeting: { title: 7, durationMs: -1 }, speakers: 'x' })).toEqual({
      title: null,
      createdAtUtc: null,
      durationMs: null,
      speakers: [],
      languages: [],
    });
  });

  it('names an upload by its decoded last segment', () => {
    expect(uploadName('/user_uploads/2/ab/Weekly%20notes.json')).toBe('Weekly notes.json');
  });
});
