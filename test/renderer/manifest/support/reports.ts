// Viewer sessions built from the real fixtures: the manifest and payloads go through the shared
// decoder and transcript parsers (what main runs); only the integrity outcome is stated here, as main
// would compute it from the audio.
import type { ManifestSession } from '../../../../shared/ipc/manifest';
import type { OpusIntegrityValues } from '../../../../shared/ogg';
import {
  decodeManifest,
  parseTranscript,
  type IntegrityOutcome,
  type ManifestReport,
  type TranscriptView,
} from '../../../../shared/manifest';

// jsdom tests have no Node types, and Vite refuses imports outside the repository; Node's own
// loader reads the fixtures (vitest runs jsdom tests inside Node).
const nodeProcess = (
  globalThis as unknown as {
    process: {
      getBuiltinModule(id: 'node:fs'): { readFileSync(path: string, enc: 'utf8'): string };
      env: Record<string, string | undefined>;
    };
  }
).process;
const fs = nodeProcess.getBuiltinModule('node:fs');
// Vite may hand a module a /@fs/ path as its URL; only the file-system path matters here.
const HERE = decodeURIComponent(import.meta.url.replace(/^file:\/\//, '').replace(/^\/@fs/, ''));
// The spec folder sits beside the repository; a git worktree elsewhere names it in TRIBUTARY_SHARED.
const SHARED =
  nodeProcess.env.TRIBUTARY_SHARED ??
  HERE.replace(/\/test\/renderer\/manifest\/support\/reports\.ts.*$/, '').replace(
    /\/[^/]+$/,
    '/shared',
  );
const FIXTURES = `${SHARED}/fixtures/manifests`;
const fixture = (path: string) => fs.readFileSync(`${FIXTURES}/${path}`, 'utf8');

const weeklyManifest = fixture('weekly-planning/manifest.json');
const reencodedManifest = fixture('weekly-planning-reencoded/manifest.json');
const badPatterns = fixture('invalid/bad-patterns.json');
const PAYLOADS: Record<string, string> = Object.fromEntries(
  [
    'transcript.raw.vtt',
    'transcript.corrected.json',
    'transcript.es.txt',
    'transcript.readable.txt',
  ].map((name) => [name, fixture(`weekly-planning/${name}`)]),
);

export const WEEKLY_SHA = '944f469c2ff01ffe9b62474b43ed665c048cae998e60f0ec0c3b4d2b4db729a7';
export const REENCODED_SHA = '0b1d2c3e4f5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';

function report(
  json: string,
  manifestPath: string,
  integrity: IntegrityOutcome,
  edit?: (doc: Record<string, unknown>) => void,
): ManifestReport {
  let text = json;
  if (edit) {
    const doc = JSON.parse(json) as Record<string, unknown>;
    edit(doc);
    text = JSON.stringify(doc);
  }
  const decoded = decodeManifest(text);
  const manifest = decoded.manifest;
  const speakers = manifest?.speakers ?? [];
  const views: TranscriptView[] = [];
  for (const list of ['transcripts', 'readableTranscripts'] as const) {
    (manifest?.[list] ?? []).forEach((entry, index) => {
      const ref = entry.payloadRef as { path?: string };
      const parsed = parseTranscript(entry.format, PAYLOADS[ref.path ?? ''] ?? '', speakers);
      views.push({
        list,
        index,
        id: entry.id,
        role: entry.role,
        format: entry.format,
        language: entry.language,
        isDefault: entry.default === true,
        status: parsed.ok
          ? 'parsed'
          : 'unsupported' in parsed
            ? 'unsupported-format'
            : 'unparseable',
        reason: parsed.ok ? undefined : parsed.reason,
        timed: parsed.ok ? parsed.timed : false,
        cues: parsed.ok ? parsed.cues : [],
      });
    });
  }
  return {
    manifestPath,
    valid: decoded.errors.length === 0,
    errors: decoded.errors,
    warnings: decoded.warnings,
    manifest,
    transcripts: views,
    integrity,
  };
}

const actual = (sha: string): OpusIntegrityValues => ({
  matchPolicy: 'exact-opus-audio-v1',
  opusAudioSha256: sha,
  sampleRate: 48000,
  channels: 1,
  sampleCount: 981713,
  durationMs: 20452,
});

function session(r: ManifestReport, mediaToken: string | null): ManifestSession {
  return {
    sessionId: `session-${Math.random().toString(36).slice(2)}-0123456789`,
    report: r,
    attachments: [
      {
        index: 0,
        name: 'notes.md',
        mime: 'text/markdown',
        byteLength: 29,
        textPreview: '# Notes\n\n- Release on Friday\n',
      },
    ],
    mediaToken,
    mediaType: mediaToken ? 'audio/ogg' : null,
    temporaryCopy: false,
  };
}

export function verifiedSession(edit?: (doc: Record<string, unknown>) => void): ManifestSession {
  return session(
    report(
      weeklyManifest,
      '/meetings/weekly-planning/manifest.json',
      {
        status: 'verified',
        mismatches: [],
        audioSource: { via: 'payloadRef', location: '/meetings/weekly-planning/recording.opus' },
        actual: actual(WEEKLY_SHA),
      },
      edit,
    ),
    'token-verified-0123456789abcdef',
  );
}

export function mismatchedSession(): ManifestSession {
  return session(
    report(reencodedManifest, '/meetings/weekly-planning-reencoded/manifest.json', {
      status: 'mismatch',
      mismatches: ['opusAudioSha256'],
      audioSource: {
        via: 'payloadRef',
        location: '/meetings/weekly-planning-reencoded/recording.opus',
      },
      actual: actual(REENCODED_SHA),
    }),
    null,
  );
}

export function invalidSession(): ManifestSession {
  return session(
    report(badPatterns, '/meetings/invalid/bad-patterns.json', {
      status: 'missing',
      mismatches: [],
      reason: 'no audio file found beside the manifest; pick one',
    }),
    null,
  );
}

/** bad-patterns.json (two errors) whose audio matched: it plays only after "Play anyway". */
export function invalidMatchedSession(mediaToken: string | null): ManifestSession {
  return session(
    report(badPatterns, '/meetings/invalid/bad-patterns.json', {
      status: 'verified',
      mismatches: [],
      audioSource: { via: 'only-file', location: '/meetings/invalid/recording.opus' },
      actual: actual(WEEKLY_SHA),
    }),
    mediaToken,
  );
}
