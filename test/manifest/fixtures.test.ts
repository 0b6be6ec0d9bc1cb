// The shared fixtures give exactly the outcomes their README lists, through the full check
// (decode, read payloads, find and verify the audio).
import { describe, expect, it } from 'vitest';
import { inspectManifestFile } from '../../electron/manifest';
import {
  INVALID,
  REENCODED,
  tempMeetingFolder,
  validManifest,
  WEEKLY,
  type JsonObject,
} from './support/fixtures';
import { join } from 'node:path';

const summary = (findings: { code: string; path: string }[]) =>
  findings.map((f) => `${f.code} ${f.path}`);

describe('shared fixtures', () => {
  it('weekly-planning is valid and verified, with every transcript parsed', async () => {
    const report = await inspectManifestFile(join(WEEKLY, 'manifest.json'));
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.integrity).toMatchObject({
      status: 'verified',
      mismatches: [],
      audioSource: { via: 'payloadRef' },
    });
    expect(report.manifest?.meeting.title).toBe('Weekly planning');
    expect(report.transcripts.map((t) => [t.id, t.status, t.timed])).toEqual([
      ['asr-1', 'parsed', true],
      ['fixed-1', 'parsed', true],
      ['es-1', 'parsed', false],
      ['readable-1', 'parsed', false],
    ]);
    const [raw, fixed] = report.transcripts;
    expect(raw.cues[1]).toEqual({
      startMs: 5797,
      endMs: 10776,
      speakerId: 's2',
      text: 'thanks anna the desktop client past its tests yesterday',
    });
    expect(fixed.cues).toHaveLength(4);
    expect(fixed.cues[0].words?.[0]).toEqual({ startMs: 500, endMs: 908, text: 'Welcome' });
    // The report goes to the renderer over IPC: it must survive JSON unchanged.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('weekly-planning-reencoded is a valid manifest whose audio is a mismatch on opusAudioSha256', async () => {
    const report = await inspectManifestFile(join(REENCODED, 'manifest.json'));
    expect(report.valid).toBe(true);
    expect(report.errors).toEqual([]);
    expect(report.integrity.status).toBe('mismatch');
    expect(report.integrity.mismatches).toEqual(['opusAudioSha256']);
  });

  it.each([
    ['integrity-extra-member.json', ['closed-member /integrity/bitrate']],
    ['raw-asr-with-source.json', ['raw-asr-has-source /transcripts/0']],
    ['unknown-source.json', ['unknown-source /transcripts/2']],
    [
      'bad-patterns.json',
      ['pattern-mismatch /meeting/createdAtUtc', 'pattern-mismatch /meeting/roomId'],
    ],
  ])('invalid/%s gives exactly %j', async (file, expected) => {
    const report = await inspectManifestFile(join(INVALID, file));
    expect(summary(report.errors).sort()).toEqual([...expected].sort());
    expect(report.warnings).toEqual([]);
    expect(report.valid).toBe(false);
    expect(report.manifest).toBeUndefined();
    // They share weekly-planning's audio, so integrity verifies, except where the integrity object
    // itself carries a member it does not allow: that is a verification failure (format §7.1).
    if (file === 'integrity-extra-member.json') {
      expect(report.integrity).toMatchObject({ status: 'mismatch', mismatches: ['bitrate'] });
    } else {
      expect(report.integrity).toMatchObject({ status: 'verified', mismatches: [] });
    }
  });

  it('verifies nothing under another matchPolicy', async () => {
    const doc = validManifest();
    (doc.integrity as JsonObject).matchPolicy = 'exact-opus-audio-v2';
    const f = tempMeetingFolder(doc);
    try {
      const report = await inspectManifestFile(f.manifestPath);
      expect(summary(report.errors)).toEqual(['bad-constant /integrity/matchPolicy']);
      expect(report.integrity).toMatchObject({ status: 'mismatch', mismatches: ['matchPolicy'] });
    } finally {
      f.cleanup();
    }
  });
});
