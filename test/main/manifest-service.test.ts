// The manifest viewer's main-process side over the shared fixtures: sessions through the IPC
// dispatcher, the path policy, recent files, attachments, and the browser-mode host's audio route
// (real HTTP on 127.0.0.1, real files).
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestSession } from '../../shared/ipc/manifest';
import { MEDIA_COOKIE } from '../../shared/ipc/wire';
import { mediaCookie } from './support/media-cookie';
import { FileVault } from '../../electron/accounts/vault';
import { startBrowserHost, type BrowserHost } from '../../electron/host/host';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatch';
import { ManifestService, parseRange } from '../../electron/manifest-service';
import { hashWithHooks } from '../manifest/support/mid-check';
import { FIXTURES } from '../manifest/support/fixtures';

const WEEKLY = join(FIXTURES, 'weekly-planning', 'manifest.json');
const REENCODED = join(FIXTURES, 'weekly-planning-reencoded', 'manifest.json');
const WEEKLY_AUDIO = join(FIXTURES, 'weekly-planning', 'recording.opus');

const temps: string[] = [];
function tempDir(prefix = 'tributary-manifest-svc-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of the weekly-planning folder whose manifest is changed by `edit`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests edit arbitrary JSON
function editedMeeting(edit: (doc: Record<string, any>) => void): string {
  const dir = tempDir();
  cpSync(join(FIXTURES, 'weekly-planning'), dir, { recursive: true });
  const path = join(dir, 'manifest.json');
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  edit(doc);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

async function call<T>(dispatch: Dispatch, method: string, payload: unknown): Promise<T> {
  const result = await dispatch(method, payload);
  if (!result.ok) throw Object.assign(new Error(result.error.msg), result.error);
  return result.value as T;
}

async function callError(dispatch: Dispatch, method: string, payload: unknown) {
  const result = await dispatch(method, payload);
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

describe('manifest service in browser mode (the host, its dispatcher and its audio route)', () => {
  let host: BrowserHost;
  let dispatch: Dispatch;
  let cookie: string;

  beforeAll(async () => {
    const dataDir = tempDir('tributary-manifest-host-');
    host = await startBrowserHost({
      dataDir,
      vault: new FileVault(dataDir),
      rendererDir: join(dataDir, 'no-renderer'),
    });
    dispatch = createDispatcher(host.services.handlers);
    cookie = await mediaCookie(host.port, host.secret);
  });
  afterAll(async () => host.close());

  const audioUrl = (token: string) =>
    `http://127.0.0.1:${host.port}/media/meeting-audio/${encodeURIComponent(token)}`;
  const get = (token: string, headers: Record<string, string> = {}) =>
    fetch(audioUrl(token), { headers: { cookie, ...headers } });

  it('opens the weekly-planning fixture as verified, with a media token and no attachment bytes', async () => {
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: WEEKLY });
    expect(session.report.valid).toBe(true);
    expect(session.report.errors).toEqual([]);
    expect(session.report.integrity.status).toBe('verified');
    expect(session.report.integrity.mismatches).toEqual([]);
    expect(session.mediaToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.report.transcripts.map((t) => [t.id, t.status, t.timed])).toEqual([
      ['asr-1', 'parsed', true],
      ['fixed-1', 'parsed', true],
      ['es-1', 'parsed', false],
      ['readable-1', 'parsed', false],
    ]);
    expect(session.attachments).toEqual([
      {
        index: 0,
        name: 'notes.md',
        mime: 'text/markdown',
        byteLength: 29,
        textPreview: '# Notes\n\n- Release on Friday\n',
      },
    ]);
    expect(session.report.manifest?.attachments?.[0].contentBase64).toBe('');
  });

  it('sends a manifest with deeply nested unknown members in a form IPC can carry', async () => {
    // Written as text: the test's own JSON.stringify would overflow on the nesting too.
    const path = editedMeeting((doc) => {
      doc.meeting.futureMember = 'DEEP';
      doc.provenance.PROTO = { tool: 'kept as a member' };
    });
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('"DEEP"', deep).replace('"PROTO"', '"__proto__"'),
    );
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path });
    expect(session.report.valid).toBe(true);
    expect(session.report.integrity.status).toBe('verified');
    // Both transports: JSON (browser mode) and structured clone (Electron) used to overflow here.
    const sent = JSON.parse(JSON.stringify(session)) as ManifestSession;
    expect(() => structuredClone(session)).not.toThrow();
    expect(sent.report.manifest?.meeting.title).toBe('Weekly planning');
    expect(JSON.stringify(sent.report.manifest?.meeting.futureMember)).toMatch(/^\[\[\[.*"…".*\]$/);
    const provenance = sent.report.manifest?.provenance as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(provenance)).toContain('__proto__');
  });

  it('opens the re-encoded fixture as a mismatch on opusAudioSha256 and mints no token', async () => {
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: REENCODED });
    expect(session.report.valid).toBe(true);
    expect(session.report.integrity.status).toBe('mismatch');
    expect(session.report.integrity.mismatches).toEqual(['opusAudioSha256']);
    expect(session.mediaToken).toBeNull();
  });

  it('plays an invalid manifest whose audio matched only after "Play anyway", remembered for that file', async () => {
    const path = editedMeeting((doc) => {
      doc.meeting.roomId = 'room-1';
    });
    const first = await call<ManifestSession>(dispatch, 'openManifest', { path });
    expect(first.report.valid).toBe(false);
    expect(first.report.integrity.status).toBe('verified');
    expect(first.mediaToken).toBeNull();

    const chosen = await call<ManifestSession>(dispatch, 'playManifestAnyway', {
      sessionId: first.sessionId,
    });
    expect((await get(chosen.mediaToken!, { range: 'bytes=0-3' })).status).toBe(206);
    // Opened again, the same file plays at once; the same content in another file asks again.
    const again = await call<ManifestSession>(dispatch, 'openManifest', { path });
    expect(again.mediaToken).not.toBeNull();
    const copy = join(resolve(path, '..'), 'copy.json');
    copyFileSync(path, copy);
    expect(
      (await call<ManifestSession>(dispatch, 'openManifest', { path: copy })).mediaToken,
    ).toBeNull();
    // Once the file changes, the choice no longer holds.
    writeFileSync(path, readFileSync(path, 'utf8') + '\n');
    expect((await call<ManifestSession>(dispatch, 'openManifest', { path })).mediaToken).toBeNull();

    // Audio that does not belong is never played, whatever is asked.
    const reencoded = await call<ManifestSession>(dispatch, 'openManifest', { path: REENCODED });
    const refused = await callError(dispatch, 'playManifestAnyway', {
      sessionId: reencoded.sessionId,
    });
    expect(refused.code).toBe('MANIFEST_AUDIO_NOT_PLAYABLE');
  });

  it('serves byte ranges of the verified file, and the whole file without a Range', async () => {
    const { mediaToken } = await call<ManifestSession>(dispatch, 'openManifest', { path: WEEKLY });
    const file = readFileSync(WEEKLY_AUDIO);

    const ranged = await get(mediaToken!, { range: 'bytes=100-1099' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${file.length}`);
    expect(ranged.headers.get('content-type')).toBe('audio/ogg');
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(file.subarray(100, 1100));

    const tail = await get(mediaToken!, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(file.subarray(file.length - 10));

    const open = await get(mediaToken!, { range: `bytes=${file.length - 5}-` });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(file.subarray(file.length - 5));

    const whole = await get(mediaToken!);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(file);

    const beyond = await get(mediaToken!, { range: `bytes=${file.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${file.length}`);
  });

  it('refuses requests without the per-launch cookie, unknown tokens and revoked tokens', async () => {
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: WEEKLY });
    const token = session.mediaToken!;
    expect((await fetch(audioUrl(token))).status).toBe(401);
    expect(
      (await fetch(audioUrl(token), { headers: { cookie: `${MEDIA_COOKIE}=wrong` } })).status,
    ).toBe(401);
    expect((await get('A'.repeat(43))).status).toBe(404);
    expect((await get('..%2F..%2Fetc%2Fpasswd')).status).toBe(404);

    await call(dispatch, 'closeManifest', { sessionId: session.sessionId });
    expect((await get(token, { range: 'bytes=0-9' })).status).toBe(404);
  });

  it('refuses to serve a file that changed after it was verified', async () => {
    const manifest = editedMeeting(() => undefined);
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: manifest });
    expect(session.report.integrity.status).toBe('verified');
    expect((await get(session.mediaToken!, { range: 'bytes=0-9' })).status).toBe(206);
    const audio = join(manifest, '..', 'recording.opus');
    writeFileSync(audio, Buffer.concat([readFileSync(audio), Buffer.from('extra')]));
    expect((await get(session.mediaToken!, { range: 'bytes=0-9' })).status).toBe(410);
    expect((await get(session.mediaToken!, { range: 'bytes=0-9' })).status).toBe(404);
  });

  it('refuses payload paths that leave the manifest folder, and never serves them', async () => {
    const manifest = editedMeeting((doc) => {
      doc.transcripts[0].payloadRef = { path: '../../../../../../etc/passwd' };
      doc.audio.payloadRef = { path: '../weekly-planning/recording.opus' };
    });
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: manifest });
    expect(session.report.valid).toBe(false);
    expect(session.report.errors).toContainEqual(
      expect.objectContaining({ code: 'bad-payload-ref', path: '/transcripts/0/payloadRef/path' }),
    );
    expect(session.report.errors).toContainEqual(
      expect.objectContaining({ code: 'bad-payload-ref', path: '/audio/payloadRef/path' }),
    );
    expect(session.report.transcripts[0].cues).toEqual([]);
    expect(session.report.integrity.status).not.toBe('verified');
    expect(session.mediaToken).toBeNull();
  });

  it('checks a picked audio file: missing audio becomes verified after choosing the recording', async () => {
    const manifest = editedMeeting((doc) => delete doc.audio.payloadRef);
    rmSync(join(manifest, '..', 'recording.opus'));
    const missing = await call<ManifestSession>(dispatch, 'openManifest', { path: manifest });
    expect(missing.report.integrity.status).toBe('missing');
    expect(missing.report.integrity.reason).toMatch(/no audio file/);
    expect(missing.mediaToken).toBeNull();

    const picked = await call<ManifestSession>(dispatch, 'chooseManifestAudio', {
      sessionId: missing.sessionId,
      path: WEEKLY_AUDIO,
    });
    expect(picked.report.integrity).toMatchObject({
      status: 'verified',
      audioSource: { via: 'argument', location: WEEKLY_AUDIO },
    });
    expect((await get(picked.mediaToken!, { range: 'bytes=0-3' })).status).toBe(206);
    // The old session is gone.
    const gone = await callError(dispatch, 'getManifestAttachment', {
      sessionId: missing.sessionId,
      index: 0,
    });
    expect(gone.code).toBe('UNKNOWN_MANIFEST_SESSION');
  });

  it('serves an embedded recording (an audio attachment) by range once verified', async () => {
    const recording = readFileSync(WEEKLY_AUDIO);
    const manifest = editedMeeting((doc) => {
      doc.audio.payloadRef = { attachment: 'recording.opus' };
      doc.attachments.push({
        name: 'recording.opus',
        mime: 'audio/ogg',
        contentBase64: recording.toString('base64'),
      });
    });
    rmSync(join(manifest, '..', 'recording.opus'));
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: manifest });
    expect(session.report.integrity).toMatchObject({
      status: 'verified',
      audioSource: { via: 'payloadRef', location: 'attachment:recording.opus' },
    });
    // The renderer gets the attachment's size, not its bytes.
    expect(session.attachments[1]).toMatchObject({
      name: 'recording.opus',
      byteLength: recording.length,
      textPreview: null,
    });
    expect(session.report.manifest?.attachments?.[1].contentBase64).toBe('');
    const ranged = await get(session.mediaToken!, { range: 'bytes=1000-1999' });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(recording.subarray(1000, 2000));
  });

  it('opens a dropped manifest by its intake token as a temporary copy, deleted on close', async () => {
    const dir = tempDir();
    const copy = join(dir, 'dropped-123');
    copyFileSync(REENCODED, copy);
    const dropped = host.services.intake.register(copy, {
      name: 'manifest.json',
      temporary: true,
    });
    const session = await call<ManifestSession>(dispatch, 'openManifest', {
      token: dropped.token,
    });
    expect(session.temporaryCopy).toBe(true);
    // Only the bytes came over: the payloads beside the original are not found.
    expect(session.report.errors.map((f) => f.code)).toContain('payload-unreadable');
    const recent = await call<Array<{ path: string }>>(dispatch, 'listRecentManifests', {});
    expect(recent.map((r) => r.path)).not.toContain(copy);

    // A dropped recording re-checks it; the manifest's copy is kept while the session lives.
    const audioCopy = join(dir, 'dropped-124');
    copyFileSync(WEEKLY_AUDIO, audioCopy);
    const audio = host.services.intake.register(audioCopy, { temporary: true });
    const checked = await call<ManifestSession>(dispatch, 'chooseManifestAudio', {
      sessionId: session.sessionId,
      token: audio.token,
    });
    expect(checked.report.integrity.status).toBe('verified');
    expect(existsSync(copy)).toBe(true);
    // The copy's payloads are missing, so the manifest is invalid: its audio waits for "Play anyway".
    expect(checked.mediaToken).toBeNull();
    const playing = await call<ManifestSession>(dispatch, 'playManifestAnyway', {
      sessionId: checked.sessionId,
    });
    expect((await get(playing.mediaToken!, { range: 'bytes=0-3' })).status).toBe(206);

    await call(dispatch, 'closeManifest', { sessionId: checked.sessionId });
    expect(existsSync(copy)).toBe(false);
    expect(existsSync(audioCopy)).toBe(false);
    expect(host.services.intake.get(dropped.token)).toBeUndefined();
    const stale = await callError(dispatch, 'openManifest', { token: dropped.token });
    expect(stale.code).toBe('INVALID_PAYLOAD');
  });

  it('reports an unreadable manifest and malformed calls with their codes', async () => {
    const missingFile = await callError(dispatch, 'openManifest', {
      path: join(tempDir(), 'nope.json'),
    });
    expect(missingFile).toMatchObject({ code: 'MANIFEST_UNREADABLE', status: 404 });
    const noDialog = await callError(dispatch, 'openManifest', {});
    expect(noDialog.code).toBe('UNSUPPORTED');
    const badSession = await callError(dispatch, 'closeManifest', { sessionId: 'x' });
    expect(badSession.code).toBe('INVALID_PAYLOAD');
    const unknown = await callError(dispatch, 'getManifestAttachment', {
      sessionId: 'A'.repeat(24),
      index: 0,
    });
    expect(unknown).toMatchObject({ code: 'UNKNOWN_MANIFEST_SESSION', status: 404 });
  });

  it('lists recent manifests, most recent first, and forgets them', async () => {
    await call(dispatch, 'openManifest', { path: REENCODED });
    await call(dispatch, 'openManifest', { path: WEEKLY });
    const recent = await call<Array<{ path: string; title: string; status: string }>>(
      dispatch,
      'listRecentManifests',
      {},
    );
    expect(recent.slice(0, 2).map((r) => [r.path, r.title, r.status])).toEqual([
      [WEEKLY, 'Weekly planning', 'verified'],
      [REENCODED, 'Weekly planning', 'mismatch'],
    ]);
    expect(recent.filter((r) => r.path === WEEKLY)).toHaveLength(1);
    const after = await call<Array<{ path: string }>>(dispatch, 'forgetRecentManifest', {
      path: WEEKLY,
    });
    expect(after.map((r) => r.path)).not.toContain(WEEKLY);
  });

  it('hands out attachment bytes for a download (browser mode has no save dialog)', async () => {
    const session = await call<ManifestSession>(dispatch, 'openManifest', { path: WEEKLY });
    const saved = await callError(dispatch, 'saveManifestAttachment', {
      sessionId: session.sessionId,
      index: 0,
    });
    expect(saved.code).toBe('UNSUPPORTED');
    const attachment = await call<{ name: string; contentBase64: string }>(
      dispatch,
      'getManifestAttachment',
      { sessionId: session.sessionId, index: 0 },
    );
    expect(Buffer.from(attachment.contentBase64, 'base64').toString()).toBe(
      '# Notes\n\n- Release on Friday\n',
    );
    const none = await callError(dispatch, 'getManifestAttachment', {
      sessionId: session.sessionId,
      index: 5,
    });
    expect(none.code).toBe('UNKNOWN_ATTACHMENT');
  });
});

describe('manifest service in Electron mode (dialogs, path policy)', () => {
  let dataDir: string;
  const chosen: { manifest: string | null; audio: string | null; save: string | null } = {
    manifest: null,
    audio: null,
    save: null,
  };
  const make = () =>
    new ManifestService({
      dataDir,
      allowTypedPaths: false,
      dialogs: {
        chooseManifest: async () => chosen.manifest,
        chooseAudio: async () => chosen.audio,
        chooseSaveTarget: async () => chosen.save,
      },
    });

  beforeAll(() => {
    dataDir = tempDir('tributary-manifest-electron-');
  });
  afterEach(() => Object.assign(chosen, { manifest: null, audio: null, save: null }));

  it('refuses paths main did not hand out, and allows launch requests and recent files', async () => {
    const service = make();
    await expect(service.open({ path: WEEKLY })).rejects.toMatchObject({
      code: 'PATH_NOT_ALLOWED',
      status: 403,
    });
    service.allowPath(WEEKLY);
    expect((await service.open({ path: WEEKLY })).report.integrity.status).toBe('verified');

    // A fresh service (as after a restart) reads the recent list and allows what it lists.
    const restarted = make();
    expect(restarted.listRecent().map((r) => r.path)).toEqual([WEEKLY]);
    expect((await restarted.open({ path: WEEKLY })).mediaToken).not.toBeNull();
    await expect(restarted.open({ path: REENCODED })).rejects.toMatchObject({
      code: 'PATH_NOT_ALLOWED',
    });
  });

  it('opens through the dialog, reports a cancelled dialog, and saves an attachment', async () => {
    const service = make();
    await expect(service.open({})).rejects.toMatchObject({ code: 'CANCELLED' });
    chosen.manifest = REENCODED;
    const session = await service.open({});
    expect(session.report.integrity.mismatches).toEqual(['opusAudioSha256']);

    chosen.save = join(tempDir(), 'saved-notes.md');
    const saved = await service.saveAttachment(session.sessionId, 0);
    expect(saved.savedTo).toBe(chosen.save);
    expect(readFileSync(chosen.save, 'utf8')).toBe('# Notes\n\n- Release on Friday\n');
  });

  it('re-checks against a picked file: the wrong recording stays a mismatch, the right one verifies', async () => {
    const service = make();
    chosen.manifest = WEEKLY;
    const session = await service.open({});
    expect(session.report.integrity.status).toBe('verified');
    const reencoded = join(tempDir(), 'other.opus');
    copyFileSync(join(FIXTURES, 'weekly-planning-reencoded', 'recording.opus'), reencoded);
    chosen.audio = reencoded;
    const wrong = await service.chooseAudio({ sessionId: session.sessionId });
    expect(wrong.report.integrity).toMatchObject({
      status: 'mismatch',
      mismatches: ['opusAudioSha256'],
      audioSource: { via: 'argument', location: reencoded },
    });
    expect(wrong.mediaToken).toBeNull();
    // The token of the verified session was revoked when the new file was checked.
    expect(service.media.has(session.mediaToken!)).toBe(false);

    // The re-encoded manifest describes the original recording: picking that one verifies.
    chosen.manifest = REENCODED;
    const other = await service.open({});
    chosen.audio = WEEKLY_AUDIO;
    const right = await service.chooseAudio({ sessionId: other.sessionId });
    expect(right.report.integrity.status).toBe('verified');
    expect(service.media.has(right.mediaToken!)).toBe(true);
  });
});

describe('a media token is bound to the recording that was checked', () => {
  /** A verified meeting folder with a different recording (the re-encoded one) ready beside it. */
  function meetingWithImpostor() {
    const manifest = editedMeeting(() => undefined);
    const audio = join(manifest, '..', 'recording.opus');
    const impostor = join(manifest, '..', 'impostor.opus');
    copyFileSync(join(FIXTURES, 'weekly-planning-reencoded', 'recording.opus'), impostor);
    return { manifest, audio, impostor };
  }

  it('refuses a file renamed over the recording in the instant after its check', async () => {
    const { manifest, audio, impostor } = meetingWithImpostor();
    const service = new ManifestService({
      dataDir: tempDir(),
      allowTypedPaths: false,
      // The digest is the check's last step, after the file was read and closed and before the
      // session exists: where the token's file identity used to be taken from the path.
      audioHash: hashWithHooks({ onDigest: () => renameSync(impostor, audio) }),
    });
    const session = await service.openPath(manifest);
    expect(session.report.integrity.status).toBe('verified');
    expect(session.mediaToken).not.toBeNull();
    // The path now names the unverified impostor: it is never served, and the token is revoked.
    expect(service.media.serve(session.mediaToken!, 'bytes=0-9').status).toBe(410);
    expect(service.media.serve(session.mediaToken!, 'bytes=0-9').status).toBe(404);
  });

  it('refuses a different file renamed over the recording after the session was opened', async () => {
    const { manifest, audio, impostor } = meetingWithImpostor();
    const service = new ManifestService({ dataDir: tempDir(), allowTypedPaths: false });
    const session = await service.openPath(manifest);
    const before = service.media.serve(session.mediaToken!, 'bytes=0-9');
    expect(before.status).toBe(206);
    expect(Buffer.from(await before.arrayBuffer())).toEqual(readFileSync(audio).subarray(0, 10));
    renameSync(impostor, audio);
    expect(service.media.serve(session.mediaToken!, 'bytes=0-9').status).toBe(410);
  });

  // The file is opened before its identity is compared; a FIFO must not stall main in that open.
  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO put at the recording path without waiting for a writer',
    async () => {
      const { manifest, audio } = meetingWithImpostor();
      const service = new ManifestService({ dataDir: tempDir(), allowTypedPaths: false });
      const session = await service.openPath(manifest);
      rmSync(audio);
      execFileSync('mkfifo', [audio]);
      expect(service.media.serve(session.mediaToken!, 'bytes=0-9').status).toBe(410);
    },
  );
});

describe('parseRange', () => {
  it('reads single ranges and falls back to the whole resource otherwise', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ kind: 'range', start: 0, end: 0 });
    expect(parseRange('bytes=5-', 10)).toEqual({ kind: 'range', start: 5, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ kind: 'range', start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ kind: 'range', start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ kind: 'range', start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=4-2', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,3-4', 10)).toEqual({ kind: 'whole' });
    expect(parseRange('items=0-1', 10)).toEqual({ kind: 'whole' });
    expect(parseRange(undefined, 10)).toEqual({ kind: 'whole' });
  });
});
