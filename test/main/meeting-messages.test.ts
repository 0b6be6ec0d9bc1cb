// Meetings shared in messages, main's side (electron/meetings/) against the real local realm server:
// another user uploads a manifest and its files; main reads the `.json` upload (capped) to make the
// card, downloads what the manifest needs into the account's private folder and opens it through the
// manifest service's own check. Faults (a body cut halfway, a web page instead of the file) are
// injected into the realm's answers only.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingFolders } from '../../electron/meetings/folders';
import { MeetingMessages } from '../../electron/meetings/service';
import type { MeetingDownloadProgress } from '../../shared/ipc/meetings';
import { MEETING_PROBE_BYTES, meetingsMethods } from '../../shared/ipc/meetings';
import { startTestServer, type TestServer } from '../support/server';
import { WEEKLY_SHARED_FILES, REENCODED, WEEKLY } from '../manifest/support/fixtures';
import { startMain, type MainHarness } from './support/harness';

/** The files beside the manifest (weekly-planning and its variants). */
const PAYLOADS = WEEKLY_SHARED_FILES.slice(1);

let realm: TestServer;
let main: MainHarness;
let accountId: string;

/** Uploads bytes as `who` (another user than main's account) and returns the `/user_uploads/…` path. */
async function upload(name: string, bytes: Uint8Array | string, who = 'dev'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  const user = realm.users[who]!;
  const res = await fetch(`${realm.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${user.email}:${user.api_key}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

/**
 * Links uploads in a message of #general, as dev: the realm lets the reader fetch an upload only once
 * it is linked in a message they can see.
 */
async function post(paths: string[]): Promise<string[]> {
  const content = paths.map((p) => `[${p.split('/').pop()}](${p})`).join('\n');
  const res = await realm
    .client('dev')
    .post('/messages', { type: 'stream', to: 'general', topic: 'meetings', content });
  expect(res.status).toBe(200);
  return paths;
}

/** Uploads a fixture folder's manifest and its payloads and posts them; manifest first. */
async function uploadMeeting(folder = WEEKLY): Promise<string[]> {
  const paths = [await upload('manifest.json', readFileSync(join(folder, 'manifest.json')))];
  for (const name of PAYLOADS) paths.push(await upload(name, readFileSync(join(folder, name))));
  return post(paths);
}

let downloads = 0;
const nextId = () => `download-${++downloads}`;

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  main = await startMain({ site: realm.url, user: realm.users.owner });
  accountId = main.accountId;
  await main.live();
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('meeting cards', () => {
  it('recognises the manifest by its content and summarises it', async () => {
    const paths = await uploadMeeting();
    const notes = await upload('notes.json', '{"kind":"shopping-list","items":[]}');
    await post([notes]);
    const probe = await main.services.handlers.probeMeetingMessage({
      accountId,
      paths: [...paths, notes, paths[1]!],
    });
    expect(probe.meetings).toHaveLength(1);
    const card = probe.meetings[0]!;
    expect(card.manifestPath).toBe(paths[0]);
    expect(card.summary).toEqual({
      title: 'Weekly planning',
      createdAtUtc: '2026-11-20T10:00:00Z',
      durationMs: 20452,
      speakers: ['Ana', 'Ben'],
      languages: ['en', 'es'],
    });
    expect(card).toMatchObject({ missing: [], ambiguous: [], decodeErrors: [], verdict: null });
    // Every `.json` is read (capped): the segments transcript and the notes are not manifests.
    expect(probe.skipped).toEqual([
      expect.objectContaining({ path: paths[3], reason: 'other-kind' }),
      expect.objectContaining({ path: notes, reason: 'other-kind' }),
    ]);
  });

  it('says what is missing or ambiguous, and skips what is not a manifest', async () => {
    const manifest = await upload('manifest.json', readFileSync(join(WEEKLY, 'manifest.json')));
    const vtt = await upload(
      'transcript.raw.vtt',
      readFileSync(join(WEEKLY, 'transcript.raw.vtt')),
    );
    const vttAgain = await upload('transcript.raw.vtt', 'WEBVTT\n');
    const notJson = await upload('broken.json', '{"kind": "fmt-portable-meeting", ');
    // Larger than the cap: refused unparsed (and no card) even though it starts like a manifest.
    const huge = await upload(
      'huge.json',
      `{"kind":"fmt-portable-meeting","pad":"${'x'.repeat(MEETING_PROBE_BYTES)}"}`,
    );
    await post([manifest, vtt, vttAgain, notJson, huge]);
    const probe = await main.services.handlers.probeMeetingMessage({
      accountId,
      paths: [manifest, vtt, vttAgain, notJson, huge],
    });
    expect(probe.meetings).toHaveLength(1);
    expect(probe.meetings[0]!.ambiguous).toEqual(['transcript.raw.vtt']);
    expect(probe.meetings[0]!.missing).toEqual([
      'transcript.corrected.json',
      'transcript.es.txt',
      'transcript.readable.txt',
      'recording.opus',
    ]);
    expect(probe.skipped.map((s) => s.reason)).toEqual(['not-json', 'too-large']);
  });

  it('refuses links that are not uploads of this realm', async () => {
    expect(
      meetingsMethods.probeMeetingMessage.input.safeParse({ accountId, paths: ['/api/v1/users'] })
        .success,
    ).toBe(false);
    // Past the schema, what normalises to another route or a thumbnail is not fetched.
    const probe = await main.services.handlers.probeMeetingMessage({
      accountId,
      paths: ['/user_uploads/1/%2e%2e/%2e%2e/api/v1/x.json', '/user_uploads/thumbnail/1/ab/x.json'],
    });
    expect(probe).toEqual({ meetings: [], skipped: [] });
  });
});

describe('opening a meeting from a message', () => {
  it('downloads into a private folder, verifies, and reuses the files on a second open', async () => {
    const paths = await uploadMeeting();
    const downloadId = nextId();
    const session = await main.services.handlers.openMeetingMessage({
      accountId,
      manifestPath: paths[0]!,
      paths,
      downloadId,
    });
    expect(session.report.valid).toBe(true);
    expect(session.report.integrity.status).toBe('verified');
    expect(session.mediaToken).not.toBeNull();
    const folder = session.report.manifestPath.replace(/\/files\/manifest\.json$/, '');
    expect(folder.startsWith(join(main.dataDir, 'meetings', accountId))).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const name of PAYLOADS)
      expect(readFileSync(join(folder, 'files', name))).toEqual(readFileSync(join(WEEKLY, name)));
    const progress = main
      .pushesOf('meetingDownloadProgress')
      .filter((p) => p.downloadId === downloadId);
    expect(progress.at(-1)!.state).toBe('done');
    expect(new Set(progress.map((p) => p.file))).toEqual(new Set(['manifest.json', ...PAYLOADS]));

    // The card now knows the verdict.
    const probe = await main.services.handlers.probeMeetingMessage({ accountId, paths });
    expect(probe.meetings[0]!.verdict).toMatchObject({
      valid: true,
      errors: [],
      integrity: { status: 'verified', mismatches: [] },
    });

    // A second open fetches nothing: every file is still the one downloaded.
    const inodes = readdirSync(join(folder, 'files')).map(
      (n) => statSync(join(folder, 'files', n)).ino,
    );
    const second = nextId();
    const again = await main.services.handlers.openMeetingMessage({
      accountId,
      manifestPath: paths[0]!,
      paths,
      downloadId: second,
    });
    expect(again.report.integrity.status).toBe('verified');
    const secondProgress = main
      .pushesOf('meetingDownloadProgress')
      .filter((p) => p.downloadId === second);
    expect(secondProgress.map((p) => p.state)).toEqual(['checking', 'done']);
    expect(
      readdirSync(join(folder, 'files')).map((n) => statSync(join(folder, 'files', n)).ino),
    ).toEqual(inodes);
  });

  it('does not play a re-encoded recording', async () => {
    const paths = await uploadMeeting(REENCODED);
    const session = await main.services.handlers.openMeetingMessage({
      accountId,
      manifestPath: paths[0]!,
      paths,
      downloadId: nextId(),
    });
    expect(session.report.integrity.status).toBe('mismatch');
    expect(session.mediaToken).toBeNull();
  });

  it('a path leaving its folder is the decoder’s error, and nothing outside the folder is written', async () => {
    const doc = JSON.parse(readFileSync(join(WEEKLY, 'manifest.json'), 'utf8'));
    doc.transcripts[0].payloadRef = { path: '../../../escape.vtt' };
    const manifest = await upload('escape.json', JSON.stringify(doc));
    const others = [];
    for (const name of PAYLOADS) others.push(await upload(name, readFileSync(join(WEEKLY, name))));
    others.push(await upload('escape.vtt', 'WEBVTT\n'));
    await post([manifest, ...others]);
    const session = await main.services.handlers.openMeetingMessage({
      accountId,
      manifestPath: manifest,
      paths: [manifest, ...others],
      downloadId: nextId(),
    });
    expect(session.report.valid).toBe(false);
    expect(session.report.errors.map((e) => e.code)).toContain('bad-payload-ref');
    const folder = session.report.manifestPath.replace(/\/files\/escape\.json$/, '');
    expect(existsSync(join(folder, 'escape.vtt'))).toBe(false);
    expect(
      readdirSync(join(main.dataDir, 'meetings', accountId)).every((n) => /^[0-9a-f]{32}$/.test(n)),
    ).toBe(true);
  });
});

describe('downloads that go wrong', () => {
  /** A MeetingMessages on main's account whose realm answers pass through `fault`. */
  function withFault(fault: (url: string, response: Response) => Response | Promise<Response>) {
    const progress: MeetingDownloadProgress[] = [];
    const meetings = new MeetingMessages({
      meetingsDir: join(main.dataDir, 'meetings'),
      push: (channel, payload) => {
        if (channel === 'meetingDownloadProgress')
          progress.push(payload as MeetingDownloadProgress);
      },
      client: () => main.services.session(accountId).client,
      manifests: main.services.manifests,
      fetch: async (input, init) => fault(String(input), await fetch(input, init)),
    });
    return { meetings, progress };
  }

  it('a body cut halfway fails clearly, leaves no part behind, and is fetched again next time', async () => {
    const paths = await uploadMeeting();
    const { meetings } = withFault((url, response) => {
      if (!url.endsWith('/recording.opus')) return response;
      // The first 4 KiB, then the connection breaks.
      const reader = response.body!.getReader();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= 4096) return controller.error(new Error('connection reset'));
          const { done, value } = await reader.read();
          if (done) return controller.close();
          const part = value.subarray(0, 4096 - sent);
          sent += part.length;
          controller.enqueue(part);
        },
      });
      return new Response(body, { status: 200, headers: response.headers });
    });
    await expect(meetings.open(accountId, paths[0]!, paths, nextId())).rejects.toThrow(
      /connection reset/,
    );
    const folder = meetings.folders.folderFor(accountId, paths[0]!);
    const files = readdirSync(join(folder, 'files'));
    expect(files.some((n) => n.includes('.part-'))).toBe(false);
    expect(files).not.toContain('recording.opus');

    // Without the fault, the recording is fetched again whole and verifies.
    const session = await main.services.meetings.open(accountId, paths[0]!, paths, nextId());
    expect(session.report.integrity.status).toBe('verified');
  });

  it('a web page instead of a file is refused with a clear message', async () => {
    const paths = await uploadMeeting();
    const { meetings } = withFault((url, response) =>
      url.endsWith('/transcript.raw.vtt')
        ? new Response('<html><body>Sign in</body></html>', {
            status: 200,
            headers: { 'content-type': 'text/html; charset=utf-8' },
          })
        : response,
    );
    await expect(meetings.open(accountId, paths[0]!, paths, nextId())).rejects.toMatchObject({
      code: 'MEETING_DOWNLOAD_FAILED',
      message: 'The server answered with a web page instead of transcript.raw.vtt',
    });
    // A web page where the manifest should be: no card (and asked again next time, not cached).
    const { meetings: probing } = withFault((url, response) =>
      url.endsWith('/manifest.json')
        ? new Response('<!doctype html><title>Sign in</title>', {
            status: 200,
            headers: { 'content-type': 'text/html' },
          })
        : response,
    );
    const probe = await probing.probe(accountId, paths);
    expect(probe.meetings).toEqual([]);
    expect(probe.skipped[0]).toMatchObject({ path: paths[0], reason: 'fetch-failed' });
  });

  it('can be cancelled, and nothing half-downloaded stays', async () => {
    const paths = await uploadMeeting();
    const downloadId = nextId();
    let release: () => void = () => undefined;
    const { meetings, progress } = withFault((url, response) => {
      if (!url.endsWith('/recording.opus')) return response;
      // Sends a first chunk, then waits until the test has cancelled.
      const reader = response.body!.getReader();
      let first = true;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!first) await new Promise<void>((r) => (release = r));
          first = false;
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
        },
      });
      return new Response(body, { status: 200, headers: response.headers });
    });
    const opening = meetings.open(accountId, paths[0]!, paths, downloadId);
    await expect.poll(() => progress.some((p) => p.file === 'recording.opus')).toBe(true);
    meetings.cancel(downloadId);
    release();
    await expect(opening).rejects.toMatchObject({ code: 'MEETING_DOWNLOAD_CANCELLED' });
    expect(progress.at(-1)!.state).toBe('cancelled');
    const folder = meetings.folders.folderFor(accountId, paths[0]!);
    expect(
      readdirSync(join(folder, 'files')).filter((n) => n.startsWith('recording.opus')),
    ).toEqual([]);
  });

  it('two opens of the same meeting take turns (neither deletes the other’s download)', async () => {
    const paths = await uploadMeeting();
    let release: () => void = () => undefined;
    let gated = false;
    const { meetings, progress } = withFault((url, response) => {
      if (!url.endsWith('/recording.opus') || gated) return response;
      gated = true;
      // The first open's recording: a first chunk, then waits until the second open has started.
      const reader = response.body!.getReader();
      let first = true;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!first) await new Promise<void>((r) => (release = r));
          first = false;
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
        },
      });
      return new Response(body, { status: 200, headers: response.headers });
    });
    const first = meetings.open(accountId, paths[0]!, paths, nextId());
    await expect.poll(() => progress.some((p) => p.file === 'recording.opus')).toBe(true);
    const second = meetings.open(accountId, paths[0]!, paths, nextId());
    await new Promise((r) => setTimeout(r, 300));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.report.integrity.status).toBe('verified');
    expect(b.report.integrity.status).toBe('verified');
    const folder = meetings.folders.folderFor(accountId, paths[0]!);
    expect(readdirSync(join(folder, 'files')).some((n) => n.includes('.part-'))).toBe(false);
  });

  it('eviction skips a meeting being opened', async () => {
    const folders = new MeetingFolders(join(main.dataDir, 'meetings-busy'), 1000);
    const fake = (name: string, openedAt: number) => {
      const folder = folders.folderFor(accountId, `/user_uploads/1/aa/${name}`);
      mkdirSync(join(folder, 'files'), { recursive: true });
      folders.saveState(folder, {
        manifestUpload: `/user_uploads/1/aa/${name}`,
        files: { [name]: { upload: name, size: 400, sha256: '', ino: 0, mtimeMs: 0 } },
        openedAt,
        verdict: null,
      });
      return folder;
    };
    const busy = fake('busy.json', 1);
    const idle = fake('idle.json', 2);
    folders.busy.add(busy);
    const target = folders.folderFor(accountId, '/user_uploads/1/aa/new.json');
    await folders.makeRoom(accountId, target, 0, 500);
    expect(existsSync(busy)).toBe(true);
    expect(existsSync(idle)).toBe(false);
  });

  it('a cancel right after the open (before any answer) is not lost', async () => {
    const paths = await uploadMeeting();
    const downloadId = nextId();
    const { meetings, progress } = withFault((_url, response) => response);
    const opening = meetings.open(accountId, paths[0]!, paths, downloadId);
    meetings.cancel(downloadId);
    await expect(opening).rejects.toMatchObject({ code: 'MEETING_DOWNLOAD_CANCELLED' });
    expect(progress.at(-1)!.state).toBe('cancelled');
    // The id is free again.
    await expect(meetings.open(accountId, paths[0]!, paths, downloadId)).resolves.toBeTruthy();
  });

  it('a meeting larger than the cap is refused; older meetings make room', async () => {
    const capped = (capBytes: number) =>
      new MeetingMessages({
        meetingsDir: join(main.dataDir, 'meetings-capped'),
        push: () => undefined,
        client: () => main.services.session(accountId).client,
        manifests: main.services.manifests,
        capBytes,
      });
    const small = capped(40_000);
    const paths = await uploadMeeting();
    await expect(small.open(accountId, paths[0]!, paths, nextId())).rejects.toMatchObject({
      code: 'MEETING_TOO_LARGE',
    });
    const roomy = capped(100_000);
    const first = await uploadMeeting();
    await roomy.open(accountId, first[0]!, first, nextId());
    const second = await uploadMeeting();
    await roomy.open(accountId, second[0]!, second, nextId());
    // Both do not fit in 100 kB: the one opened first was deleted.
    expect(existsSync(roomy.folders.folderFor(accountId, first[0]!))).toBe(false);
    expect(existsSync(roomy.folders.folderFor(accountId, second[0]!))).toBe(true);
  });

  it('a meeting larger than the cap is refused before any other meeting is deleted', async () => {
    const small = new MeetingMessages({
      meetingsDir: join(main.dataDir, 'meetings-refused'),
      push: () => undefined,
      client: () => main.services.session(accountId).client,
      manifests: main.services.manifests,
      capBytes: 40_000,
    });
    // Another meeting already downloaded (a small one, opened long ago).
    const other = small.folders.folderFor(accountId, '/user_uploads/1/aa/other.json');
    mkdirSync(join(other, 'files'), { recursive: true });
    writeFileSync(join(other, 'files', 'other.json'), '{}');
    small.folders.saveState(other, {
      manifestUpload: '/user_uploads/1/aa/other.json',
      files: {
        'other.json': {
          upload: '/user_uploads/1/aa/other.json',
          size: 2,
          sha256: '',
          ino: 0,
          mtimeMs: 0,
        },
      },
      openedAt: 1,
      verdict: null,
    });
    const paths = await uploadMeeting();
    await expect(small.open(accountId, paths[0]!, paths, nextId())).rejects.toMatchObject({
      code: 'MEETING_TOO_LARGE',
    });
    expect(existsSync(join(other, 'files', 'other.json'))).toBe(true);
  });
});
