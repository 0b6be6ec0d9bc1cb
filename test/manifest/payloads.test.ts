// Reading payloads and finding the audio on real files in a temporary copy of the fixture folder:
// checks of sha256/byteLength, refusal of paths and symbolic links that leave the folder, attachments,
// and the audio discovery order of manifest-decisions §3.
import { describe, expect, it } from 'vitest';
import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { inspectManifestFile } from '../../electron/manifest';
import { readInsideFolder } from '../../electron/manifest/safe-files';
import {
  deleteAt,
  REENCODED,
  setAt,
  WEEKLY,
  type Json,
  type JsonObject,
  tempFoldersPerTest,
} from './support/fixtures';

const temps = tempFoldersPerTest();
const folder = temps.folder;

const codes = (findings: { code: string; path: string }[]) =>
  findings.map((f) => `${f.code} ${f.path}`);

describe('transcript payloads', () => {
  it('a changed payload file is payload-hash-mismatch and payload-length-mismatch', async () => {
    const f = folder();
    writeFileSync(join(f.dir, 'transcript.es.txt'), 'Hola.\n');
    const report = await inspectManifestFile(f.manifestPath);
    expect(codes(report.errors)).toEqual([
      'payload-length-mismatch /transcripts/2/payloadRef/byteLength',
      'payload-hash-mismatch /transcripts/2/payloadRef/sha256',
    ]);
    expect(report.valid).toBe(false);
    expect(report.transcripts[2]).toMatchObject({ id: 'es-1', status: 'unreadable', cues: [] });
    // Decoding alone was fine; the integrity of the audio is a separate outcome.
    expect(report.integrity.status).toBe('verified');
  });

  it('a same-length edit is caught by the hash alone', async () => {
    const f = folder();
    const path = join(f.dir, 'transcript.readable.txt');
    writeFileSync(path, readFileSync(path, 'utf8').replace('Ana', 'Eva'));
    expect(codes((await inspectManifestFile(f.manifestPath)).errors)).toEqual([
      'payload-hash-mismatch /readableTranscripts/0/payloadRef/sha256',
    ]);
  });

  it('a missing payload file is payload-unreadable', async () => {
    const f = folder();
    rmSync(join(f.dir, 'transcript.raw.vtt'));
    const report = await inspectManifestFile(f.manifestPath);
    expect(codes(report.errors)).toEqual(['payload-unreadable /transcripts/0/payloadRef']);
    expect(report.errors[0].message).toMatch(/transcript\.raw\.vtt/);
  });

  it('a symbolic link leading out of the folder is refused, one staying inside is followed', async () => {
    const f = folder((d) => setAt(d, ['transcripts', 2, 'payloadRef'], { path: 'link.txt' }));
    const outside = join(f.dir, '..', `outside-${Date.now()}.txt`);
    writeFileSync(outside, 'secret\n');
    temps.removeAfterTest(() => rmSync(outside, { force: true }));
    symlinkSync(outside, join(f.dir, 'link.txt'));
    const refused = await inspectManifestFile(f.manifestPath);
    expect(codes(refused.errors)).toEqual(['payload-unreadable /transcripts/2/payloadRef']);
    expect(refused.errors[0].message).toMatch(/leaves the manifest folder/);
    expect(JSON.stringify(refused)).not.toContain('secret');

    rmSync(join(f.dir, 'link.txt'));
    symlinkSync(join(f.dir, 'transcript.es.txt'), join(f.dir, 'link.txt'));
    const followed = await inspectManifestFile(f.manifestPath);
    expect(followed.errors).toEqual([]);
    expect(followed.transcripts[2].cues[0].text).toMatch(/^Ana: Bienvenidos/);
  });

  it('a directory link out of the folder is refused too', async () => {
    const outsideName = `outside-dir-${Date.now()}.txt`;
    const f = folder((d) =>
      setAt(d, ['transcripts', 2, 'payloadRef'], { path: `up/${outsideName}` }),
    );
    writeFileSync(join(f.dir, '..', outsideName), 'secret\n');
    temps.removeAfterTest(() => rmSync(join(f.dir, '..', outsideName), { force: true }));
    symlinkSync(join(f.dir, '..'), join(f.dir, 'up'));
    const report = await inspectManifestFile(f.manifestPath);
    expect(codes(report.errors)).toEqual(['payload-unreadable /transcripts/2/payloadRef']);
    expect(report.errors[0].message).toMatch(/leaves the manifest folder/);
  });

  it('a folder swapped for a link out between the check and the open is caught on the opened file', async () => {
    const f = folder();
    mkdirSync(join(f.dir, 'sub'));
    writeFileSync(join(f.dir, 'sub', 'notes.txt'), 'inside\n');
    const outsideDir = join(f.dir, '..', `outside-swap-${Date.now()}`);
    mkdirSync(outsideDir);
    writeFileSync(join(outsideDir, 'notes.txt'), 'secret\n');
    temps.removeAfterTest(() => rmSync(outsideDir, { recursive: true, force: true }));
    // Read as it is: the file inside.
    expect(await readInsideFolder(f.dir, 'sub/notes.txt', 1024)).toEqual({
      bytes: new Uint8Array(Buffer.from('inside\n')),
    });
    // Checked while inside, then `sub` becomes a link to the outside folder before the open.
    const swapped = await readInsideFolder(f.dir, 'sub/notes.txt', 1024, async () => {
      rmSync(join(f.dir, 'sub'), { recursive: true });
      symlinkSync(outsideDir, join(f.dir, 'sub'));
    });
    expect(swapped).toEqual({
      reason: 'sub/notes.txt leaves the manifest folder (changed while it was opened)',
    });
  });

  it('a path in a subfolder is read', async () => {
    const f = folder((d) => setAt(d, ['transcripts', 2, 'payloadRef', 'path'], 'sub/es.txt'));
    mkdirSync(join(f.dir, 'sub'));
    renameSync(join(f.dir, 'transcript.es.txt'), join(f.dir, 'sub', 'es.txt'));
    expect((await inspectManifestFile(f.manifestPath)).errors).toEqual([]);
  });

  it('reads attachment payloads, checks them, and rejects bad base64', async () => {
    const text = 'Ana: Hola.\n';
    const b64 = Buffer.from(text).toString('base64');
    const f = folder((d) => {
      (d.attachments as Json[]).push({ name: 'es.txt', mime: 'text/plain', contentBase64: b64 });
      setAt(d, ['transcripts', 2, 'payloadRef'], {
        attachment: 'es.txt',
        byteLength: Buffer.byteLength(text),
      });
    });
    const report = await inspectManifestFile(f.manifestPath);
    expect(report.errors).toEqual([]);
    expect(report.transcripts[2].cues).toEqual([{ startMs: 0, endMs: 0, text: 'Ana: Hola.' }]);

    const bad = folder((d) => {
      (d.attachments as Json[]).push({ name: 'es.txt', mime: 'text/plain', contentBase64: '***' });
      setAt(d, ['transcripts', 2, 'payloadRef'], { attachment: 'es.txt' });
    });
    expect(codes((await inspectManifestFile(bad.manifestPath)).errors)).toEqual([
      'payload-unreadable /transcripts/2/payloadRef',
    ]);

    const wrongLength = folder((d) => {
      (d.attachments as Json[]).push({ name: 'es.txt', mime: 'text/plain', contentBase64: b64 });
      setAt(d, ['transcripts', 2, 'payloadRef'], { attachment: 'es.txt', byteLength: 3 });
    });
    expect(codes((await inspectManifestFile(wrongLength.manifestPath)).errors)).toEqual([
      'payload-length-mismatch /transcripts/2/payloadRef/byteLength',
    ]);
  });

  it('an unsupported format is listed as such, its payload still checked', async () => {
    const f = folder((d) => setAt(d, ['transcripts', 2, 'format'], 'application/pdf'));
    const report = await inspectManifestFile(f.manifestPath);
    expect(codes(report.warnings)).toEqual(['unsupported-format /transcripts/2/format']);
    expect(report.valid).toBe(true);
    expect(report.transcripts[2]).toMatchObject({
      status: 'unsupported-format',
      reason: 'format not supported',
    });
  });
});

describe('audio discovery and integrity', () => {
  it('audio.payloadRef sha256 and byteLength are checked while streaming', async () => {
    const good = folder((d) =>
      setAt(d, ['audio', 'payloadRef'], {
        path: 'recording.opus',
        byteLength: 59736,
        sha256: '0'.repeat(64),
      }),
    );
    const report = await inspectManifestFile(good.manifestPath);
    expect(codes(report.errors)).toEqual(['payload-hash-mismatch /audio/payloadRef/sha256']);
    expect(report.integrity.status).toBe('verified');

    const short = folder((d) =>
      setAt(d, ['audio', 'payloadRef'], { path: 'recording.opus', byteLength: 59735 }),
    );
    const shortReport = await inspectManifestFile(short.manifestPath);
    expect(codes(shortReport.errors)).toEqual([
      'payload-length-mismatch /audio/payloadRef/byteLength',
    ]);
  });

  it('a missing audio file is integrity "missing", not a manifest error', async () => {
    const f = folder();
    rmSync(join(f.dir, 'recording.opus'));
    const report = await inspectManifestFile(f.manifestPath);
    expect(report.valid).toBe(true);
    expect(report.integrity).toMatchObject({ status: 'missing', mismatches: [] });
  });

  it('an audio file that is not Ogg Opus is "unreadable", not a manifest error', async () => {
    const f = folder();
    writeFileSync(join(f.dir, 'recording.opus'), 'not audio at all');
    const report = await inspectManifestFile(f.manifestPath);
    expect(report.valid).toBe(true);
    expect(report.integrity).toMatchObject({
      status: 'unreadable',
      reason: expect.stringMatching(/Ogg/),
    });
  });

  it('a chosen audio file replaces discovery', async () => {
    const f = folder();
    const report = await inspectManifestFile(f.manifestPath, {
      audioPath: join(REENCODED, 'recording.opus'),
    });
    expect(report.integrity).toMatchObject({
      status: 'mismatch',
      audioSource: { via: 'argument' },
    });
  });

  it('without audio.payloadRef: an audio attachment first', async () => {
    const f = folder((d) => {
      deleteAt(d, ['audio', 'payloadRef']);
      (d.attachments as Json[]).push({
        name: 'rec',
        mime: 'audio/ogg',
        contentBase64: readFileSync(join(REENCODED, 'recording.opus')).toString('base64'),
      });
    });
    const report = await inspectManifestFile(f.manifestPath);
    // The attachment wins over recording.opus beside the manifest, so this is the re-encoded audio.
    expect(report.integrity).toMatchObject({
      status: 'mismatch',
      audioSource: { via: 'attachment', location: 'attachment:rec' },
    });
  });

  it('then a file with the manifest base name, then the only .opus/.ogg file', async () => {
    const f = folder((d) => deleteAt(d, ['audio', 'payloadRef']));
    copyFileSync(join(REENCODED, 'recording.opus'), join(f.dir, 'manifest.ogg'));
    const sibling = await inspectManifestFile(f.manifestPath);
    expect(sibling.integrity).toMatchObject({
      status: 'mismatch',
      audioSource: { via: 'sibling' },
    });

    rmSync(join(f.dir, 'manifest.ogg'));
    const only = await inspectManifestFile(f.manifestPath);
    expect(only.integrity).toMatchObject({ status: 'verified', audioSource: { via: 'only-file' } });

    copyFileSync(join(REENCODED, 'recording.opus'), join(f.dir, 'other.opus'));
    const two = await inspectManifestFile(f.manifestPath);
    expect(two.integrity).toMatchObject({
      status: 'missing',
      reason: expect.stringMatching(/pick one/),
    });
  });

  it('discovery does not follow a symbolic link out of the folder; a picked file names its problem', async () => {
    const f = folder((d) => deleteAt(d, ['audio', 'payloadRef']));
    const outside = folder();
    rmSync(join(f.dir, 'recording.opus'));
    symlinkSync(join(outside.dir, 'recording.opus'), join(f.dir, 'manifest.opus'));
    const report = await inspectManifestFile(f.manifestPath);
    expect(report.integrity).toMatchObject({
      status: 'missing',
      reason: expect.stringMatching(/no audio file/),
    });

    // A link that stays inside the folder is followed, like a payload path.
    rmSync(join(f.dir, 'manifest.opus'));
    copyFileSync(join(WEEKLY, 'recording.opus'), join(f.dir, 'kept.bin'));
    symlinkSync('kept.bin', join(f.dir, 'manifest.opus'));
    const inside = await inspectManifestFile(f.manifestPath);
    expect(inside.integrity).toMatchObject({ status: 'verified', audioSource: { via: 'sibling' } });

    const picked = await inspectManifestFile(f.manifestPath, { audioPath: f.dir });
    expect(picked.integrity).toMatchObject({
      status: 'missing',
      reason: expect.stringMatching(/not a regular file/),
    });
  });

  it('an embedded recording of several megabytes decodes (strict base64 without regexp overflow)', async () => {
    // The large attachment is read as a transcript payload, so it goes through strict base64 too.
    const big = Buffer.alloc(9 * 1024 * 1024, 7).toString('base64');
    const f = folder((d) => {
      deleteAt(d, ['audio', 'payloadRef']);
      (d.attachments as Json[]).push(
        { name: 'big.bin', mime: 'application/octet-stream', contentBase64: big },
        {
          name: 'rec',
          mime: 'audio/ogg',
          contentBase64: readFileSync(join(WEEKLY, 'recording.opus')).toString('base64'),
        },
      );
      (d.transcripts as JsonObject[])[0].payloadRef = { attachment: 'big.bin' };
      (d.transcripts as JsonObject[])[0].format = 'application/octet-stream';
    });
    const report = await inspectManifestFile(f.manifestPath);
    expect(report.errors).toEqual([]);
    expect(report.integrity).toMatchObject({
      status: 'verified',
      audioSource: { via: 'attachment' },
    });
  });

  it('audio.payloadRef naming an attachment', async () => {
    const f = folder((d) => {
      (d.attachments as Json[]).push({
        name: 'rec.opus',
        mime: 'application/octet-stream',
        contentBase64: readFileSync(join(WEEKLY, 'recording.opus')).toString('base64'),
      });
      setAt(d, ['audio', 'payloadRef'], { attachment: 'rec.opus' });
    });
    rmSync(join(f.dir, 'recording.opus'));
    const report = await inspectManifestFile(f.manifestPath);
    expect(report.integrity).toMatchObject({
      status: 'verified',
      audioSource: { via: 'payloadRef' },
    });
  });

  it('an unreadable manifest decodes to not-checked integrity', async () => {
    const f = folder();
    writeFileSync(f.manifestPath, '{"version": 2}');
    const report = await inspectManifestFile(f.manifestPath);
    expect(codes(report.errors)).toEqual(['unsupported-version /version']);
    expect(report.integrity.status).toBe('not-checked');
  });
});
