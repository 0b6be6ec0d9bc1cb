// The audio check vouches only for the bytes it read: a file that changes while it is being read is
// refused, and what comes out for playback is the identity of the file read through the open handle
// (never a later look-up by path). Embedded recordings are decoded once and those bytes are reused.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  FILE_CHANGED_WHILE_CHECKED,
  inspectManifest,
  inspectManifestFile,
  readAudioIntegrity,
} from '../../electron/manifest';
import { hashWithHooks } from './support/mid-check';
import { REENCODED, weeklyAudio, type JsonObject, tempFoldersPerTest } from './support/fixtures';

const temps = tempFoldersPerTest();

/** A temporary meeting folder and its recording's path. */
function folder(change?: (doc: JsonObject) => void) {
  const f = temps.folder(change);
  return { ...f, audio: join(f.dir, 'recording.opus') };
}

/** Overwrites one byte the check has already read; same size, so only the timestamps can tell. */
function editInPlace(file: string): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from([0x55]), 0, 1, 200);
  closeSync(fd);
  // Ext4 and others stamp writes with a coarse clock: a write a few milliseconds after the copy can
  // keep its mtime. An explicit, distinct mtime keeps the test independent of that granularity.
  utimesSync(file, new Date(), new Date(Date.UTC(2001, 0, 1)));
}

describe('an audio file that changes while it is being checked', () => {
  it('is unreadable with that reason when it is edited in place between open and the last read', async () => {
    const f = folder();
    const report = await inspectManifestFile(f.manifestPath, {
      hash: hashWithHooks({ onFirstPacket: () => editInPlace(f.audio) }),
    });
    // The bytes that were read are the original, intact recording: without the handle's identity
    // check this would be `verified` while the file on disk is another.
    expect(report.integrity).toMatchObject({
      status: 'unreadable',
      reason: FILE_CHANGED_WHILE_CHECKED,
    });
  });

  it('is unreadable when it grows while being read', async () => {
    const f = folder();
    const { result, checkedAudio } = await readAudioIntegrity(
      { found: true, source: { via: 'argument', location: f.audio }, file: f.audio },
      {
        hash: hashWithHooks({
          onFirstPacket: () => {
            // Past what the first read returned: the next read sees it, and the size tells anyway.
            const fd = openSync(f.audio, 'a');
            writeSync(fd, Buffer.alloc(16));
            closeSync(fd);
          },
        }),
      },
    );
    expect(result).toMatchObject({ ok: false, reason: FILE_CHANGED_WHILE_CHECKED });
    expect(checkedAudio).toBeUndefined();
  });

  it('reports the identity of the file it read, not of one renamed over the path right after', async () => {
    const f = folder();
    const original = statSync(f.audio);
    const other = join(f.dir, 'other.opus');
    copyFileSync(join(REENCODED, 'recording.opus'), other);
    const { result, checkedAudio } = await readAudioIntegrity(
      { found: true, source: { via: 'argument', location: f.audio }, file: f.audio },
      // The digest is taken after the file was closed: the instant in which the service used to take
      // the identity from the path (and so bound playback to the file renamed over it).
      { hash: hashWithHooks({ onDigest: () => renameSync(other, f.audio) }) },
    );
    expect(result.ok).toBe(true);
    expect(checkedAudio).toMatchObject({
      kind: 'file',
      path: f.audio,
      identity: { ino: original.ino, dev: original.dev, size: original.size },
    });
    expect(statSync(f.audio).ino).not.toBe(original.ino);
  });

  it.skipIf(process.platform === 'win32')(
    'is unreadable when a FIFO replaced it after it was found, without waiting for a writer',
    async () => {
      const f = folder();
      rmSync(f.audio);
      execFileSync('mkfifo', [f.audio]);
      const { result } = await readAudioIntegrity({
        found: true,
        source: { via: 'argument', location: f.audio },
        file: f.audio,
      });
      expect(result).toMatchObject({ ok: false, reason: 'not a regular file' });
    },
  );
});

describe('what the inspection hands to the main process beside the report', () => {
  it('gives the verified file identity, and none for audio that is not verified', async () => {
    const f = folder();
    const verified = await inspectManifest(f.manifestPath);
    expect(verified.report.integrity.status).toBe('verified');
    const now = statSync(f.audio);
    expect(verified.verifiedAudio).toEqual({
      kind: 'file',
      path: f.audio,
      identity: {
        dev: now.dev,
        ino: now.ino,
        size: now.size,
        mtimeMs: now.mtimeMs,
        ctimeMs: now.ctimeMs,
      },
    });
    // The report (what the renderer gets) carries no identity.
    expect(JSON.stringify(verified.report)).not.toMatch(/"ino"|"identity"/);

    const mismatch = await inspectManifest(join(REENCODED, 'manifest.json'));
    expect(mismatch.report.integrity.status).toBe('mismatch');
    expect(mismatch.verifiedAudio).toBeNull();
  });

  it('decodes an embedded recording once: the verified bytes are the attachment list bytes', async () => {
    const recording = weeklyAudio();
    const f = folder((doc) => {
      (doc.audio as JsonObject).payloadRef = { attachment: 'recording.opus' };
      (doc.attachments as JsonObject[]).push({
        name: 'recording.opus',
        mime: 'audio/ogg',
        contentBase64: Buffer.from(recording).toString('base64'),
      });
    });
    const inspection = await inspectManifest(f.manifestPath);
    expect(inspection.report.integrity.status).toBe('verified');
    const listed = inspection.attachments.find((a) => a.name === 'recording.opus');
    expect(listed?.bytes).toEqual(recording);
    expect(inspection.verifiedAudio).toEqual({ kind: 'bytes', bytes: recording });
    if (inspection.verifiedAudio?.kind !== 'bytes') throw new Error('expected attachment bytes');
    expect(inspection.verifiedAudio.bytes).toBe(listed?.bytes);
  });
});
