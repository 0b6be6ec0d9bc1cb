// The one verdict (issue 21, part 4): from the findings and the integrity outcome together, for the
// shared fixtures through the full check and for every combination of manifest validity and outcome.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectManifestFile } from '../../electron/manifest';
import {
  manifestVerdict,
  type Finding,
  type IntegrityStatus,
  type VerdictInput,
} from '../../shared/manifest';
import { INVALID, REENCODED, WEEKLY } from './support/fixtures';

const error: Finding = {
  code: 'pattern-mismatch',
  path: '/meeting/roomId',
  message: '/meeting/roomId "room-1" does not match ^rm_[0-9a-f]{16}$',
};
const outcome = (status: IntegrityStatus, more: Partial<VerdictInput['integrity']> = {}) => ({
  status,
  mismatches: [],
  ...more,
});

describe('manifestVerdict on the shared fixtures', () => {
  it('weekly-planning: verified recording that plays', async () => {
    const verdict = manifestVerdict(await inspectManifestFile(join(WEEKLY, 'manifest.json')));
    expect(verdict).toMatchObject({
      kind: 'verified',
      tone: 'good',
      title: 'Verified recording',
      playback: 'play',
      errors: [],
    });
  });

  it('re-encoded recording: the audio does not belong, naming what differs', async () => {
    const verdict = manifestVerdict(await inspectManifestFile(join(REENCODED, 'manifest.json')));
    expect(verdict).toMatchObject({
      kind: 'mismatch',
      tone: 'bad',
      title: 'Audio does not belong to this manifest',
      playback: 'refused',
    });
    expect(verdict.detail).toContain('opusAudioSha256 differs');
  });

  it('bad-patterns: manifest has errors, listed, never good although its audio matches', async () => {
    const report = await inspectManifestFile(join(INVALID, 'bad-patterns.json'));
    expect(report.integrity.status).toBe('verified'); // the mixed signal the issue describes
    const verdict = manifestVerdict(report);
    expect(verdict).toMatchObject({
      kind: 'invalid',
      tone: 'bad',
      title: 'Manifest has errors',
      playback: 'play-anyway',
    });
    expect(verdict.errors.map((f) => `${f.code} ${f.path}`)).toEqual([
      'pattern-mismatch /meeting/createdAtUtc',
      'pattern-mismatch /meeting/roomId',
    ]);
    expect(verdict.detail).toContain('2 errors');
  });

  it('every invalid fixture is "Manifest has errors"', async () => {
    for (const name of ['integrity-extra-member', 'raw-asr-with-source', 'unknown-source']) {
      const verdict = manifestVerdict(await inspectManifestFile(join(INVALID, `${name}.json`)));
      expect(verdict.kind, name).toBe('invalid');
      expect(verdict.tone, name).toBe('bad');
      expect(verdict.errors.length, name).toBeGreaterThan(0);
    }
  });
});

describe('manifestVerdict rules', () => {
  const statuses: IntegrityStatus[] = [
    'verified',
    'mismatch',
    'unreadable',
    'missing',
    'not-checked',
  ];

  it('is good only for a valid manifest with verified audio', () => {
    for (const status of statuses) {
      for (const errors of [[], [error]]) {
        const verdict = manifestVerdict({ errors, integrity: outcome(status) });
        const good = status === 'verified' && errors.length === 0;
        expect(verdict.tone === 'good', `${status} with ${errors.length} errors`).toBe(good);
        expect(verdict.playback === 'play', `${status} with ${errors.length} errors`).toBe(good);
      }
    }
    expect(manifestVerdict({ errors: [] }).tone).toBe('neutral');
  });

  it('an invalid manifest offers "Play anyway" only when its audio matched', () => {
    for (const status of statuses) {
      const verdict = manifestVerdict({ errors: [error], integrity: outcome(status) });
      expect(verdict.kind).toBe('invalid');
      expect(verdict.title).toBe('Manifest has errors');
      expect(verdict.errors).toEqual([error]);
      expect(verdict.playback).toBe(status === 'verified' ? 'play-anyway' : 'refused');
    }
  });

  it('valid: false counts as invalid even without listed errors', () => {
    const verdict = manifestVerdict({ valid: false, errors: [], integrity: outcome('verified') });
    expect(verdict.kind).toBe('invalid');
    expect(verdict.tone).not.toBe('good');
  });

  it('an invalid manifest with foreign audio says both', () => {
    const verdict = manifestVerdict({
      errors: [error],
      integrity: outcome('mismatch', { mismatches: ['opusAudioSha256', 'sampleCount'] }),
    });
    expect(verdict.detail).toBe(
      "The manifest has 1 error, and the audio does not belong to it either: opusAudioSha256, sampleCount differ from the manifest's integrity values.",
    );
  });

  it('missing, unreadable and pending audio of a valid manifest', () => {
    expect(
      manifestVerdict({
        errors: [],
        integrity: outcome('missing', { reason: 'no audio file found' }),
      }),
    ).toMatchObject({
      kind: 'missing',
      tone: 'caution',
      title: 'No recording found',
      playback: 'refused',
    });
    const unreadable = manifestVerdict({
      errors: [],
      integrity: outcome('unreadable', { reason: 'the file ends inside an Ogg page (truncated)' }),
    });
    expect(unreadable).toMatchObject({ kind: 'unreadable', tone: 'bad', playback: 'refused' });
    expect(unreadable.detail).toMatch(/^The file ends inside an Ogg page \(truncated\)\./);
    expect(manifestVerdict({ errors: [] })).toMatchObject({
      kind: 'checking',
      playback: 'refused',
    });
  });
});
