// "Share to a conversation…" in main against the real local realm server: the viewer's session is
// shared through the IPC dispatcher, every file goes through the upload path (the recording over tus,
// the rest multipart, with progress tagged by the share), one message links them all, and another
// user downloads every upload and gets the same bytes. A meeting that cannot be shared whole, or a
// file over the server's limit, posts nothing.
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ManifestSession,
  MeetingShareFile,
  SharedMeetingResult,
} from '../../shared/ipc/manifest';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatch';
import { startTestServer, type TestServer } from '../support/server';
import { startMain, type MainHarness } from './support/harness';
import { WEEKLY, WEEKLY_SHARED_FILES } from '../manifest/support/fixtures';

let realm: TestServer;
let main: MainHarness;
let dispatch: Dispatch;
const temps: string[] = [];

beforeAll(async () => {
  realm = await startTestServer({ maxFileUploadSizeMib: 1 });
  main = await startMain({
    site: realm.url,
    user: realm.users.owner,
    tusThresholdBytes: 32 * 1024,
  });
  await main.live();
  dispatch = createDispatcher(main.services.handlers);
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
  temps.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

async function call<T>(method: string, payload: unknown): Promise<T> {
  const result = await dispatch(method, payload);
  if (!result.ok) throw Object.assign(new Error(result.error.msg), result.error);
  return result.value as T;
}
async function callError(method: string, payload: unknown) {
  const result = await dispatch(method, payload);
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

/** A copy of weekly-planning, changed by `change` (given the folder). */
function meetingCopy(change: (dir: string) => void = () => undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-share-'));
  temps.push(dir);
  cpSync(WEEKLY, dir, { recursive: true });
  change(dir);
  return join(dir, 'manifest.json');
}

const open = (path: string) => call<ManifestSession>('openManifest', { path });

async function messageCount(): Promise<number> {
  const res = await realm.client('emma').get('/messages', {
    anchor: 'newest',
    num_before: 1000,
    num_after: 0,
    narrow: JSON.stringify([]),
  });
  return (res.body.messages as unknown[]).length;
}

/** Another user fetches an upload linked in the message. */
async function download(url: string): Promise<Buffer> {
  const res = await fetch(`${realm.url}${url}`, {
    headers: { authorization: realm.client('emma').authHeader! },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('sharing a meeting from the viewer', () => {
  it('posts the manifest, its recording and every transcript in one message to a topic', async () => {
    const session = await open(join(WEEKLY, 'manifest.json'));
    const files = await call<MeetingShareFile[]>('meetingShareFiles', {
      sessionId: session.sessionId,
    });
    expect(files.map((f) => f.name)).toEqual(WEEKLY_SHARED_FILES);
    expect(files[1].size).toBe(readFileSync(join(WEEKLY, 'recording.opus')).length);

    const group = 'share-topic-0001';
    const result = await call<SharedMeetingResult>('shareMeeting', {
      accountId: main.accountId,
      sessionId: session.sessionId,
      group,
      destination: { type: 'channel', to: 'general', topic: 'meetings' },
    });
    expect(result.messageId).toEqual(expect.any(Number));
    expect(result.files.map((f) => f.name)).toEqual(WEEKLY_SHARED_FILES);

    // Progress came through the upload path, tagged with the share: the recording resumably.
    const progress = main.pushesOf('uploadProgress').filter((p) => p.group === group);
    const finished = progress.filter((p) => p.state === 'done');
    expect(finished.map((p) => p.name).sort()).toEqual([...WEEKLY_SHARED_FILES].sort());
    expect(finished.find((p) => p.name === 'recording.opus')?.method).toBe('tus');
    expect(finished.find((p) => p.name === 'manifest.json')?.method).toBe('multipart');

    // Another user sees one message with the summary line and a link per file, same bytes each.
    const res = await realm.client('emma').get(`/messages/${result.messageId}`, {
      apply_markdown: false,
    });
    const message = res.body.message as { content: string; subject: string };
    expect(message.subject).toBe('meetings');
    const lines = message.content.split('\n');
    expect(lines[0]).toBe('Meeting recording: Weekly planning (20.5 s)');
    expect(
      lines.slice(1).map((l) => /^\[([^\]]+)\]\((\/user_uploads\/[^)]+)\)$/.exec(l)?.[1]),
    ).toEqual(WEEKLY_SHARED_FILES);
    for (const [index, file] of result.files.entries()) {
      expect(lines[index + 1]).toBe(`[${file.name}](${file.url})`);
      const bytes = await download(file.url);
      expect(bytes.equals(readFileSync(join(WEEKLY, file.name))), file.name).toBe(true);
    }
  });

  it('sends a direct message, and finds the recording by the sibling rule when not referenced', async () => {
    const path = meetingCopy((dir) => {
      const doc = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      delete doc.audio.payloadRef;
      doc.meeting.title = 'Retro with @**all** mentioned';
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(doc));
    });
    const session = await open(path);
    const result = await call<SharedMeetingResult>('shareMeeting', {
      accountId: main.accountId,
      sessionId: session.sessionId,
      group: 'share-direct-0001',
      destination: { type: 'direct', to: [realm.userIds.emma] },
    });
    expect(result.files.map((f) => f.name)).toContain('recording.opus');
    const res = await realm.client('emma').get(`/messages/${result.messageId}`, {});
    const message = res.body.message as { type: string; content: string };
    expect(message.type).toBe('private');
    // The title's "@**all**" is text, not a mention of everyone.
    expect(message.content).not.toContain('user-mention');
    expect(message.content).toContain('Retro with @');
  });

  it('posts nothing when a referenced file is missing, or a path leaves the folder', async () => {
    const before = await messageCount();
    const missing = await open(meetingCopy((dir) => unlinkSync(join(dir, 'transcript.es.txt'))));
    const refused = await callError('meetingShareFiles', { sessionId: missing.sessionId });
    expect(refused.code).toBe('MEETING_NOT_SHAREABLE');
    expect(refused.msg).toContain('transcript.es.txt: no such file');

    const escaping = await open(
      meetingCopy((dir) => {
        const doc = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
        doc.transcripts[0].payloadRef = { path: '../outside.vtt' };
        writeFileSync(join(dir, 'manifest.json'), JSON.stringify(doc));
        writeFileSync(join(dir, '..', 'outside.vtt'), 'WEBVTT\n');
      }),
    );
    const leaves = await callError('shareMeeting', {
      accountId: main.accountId,
      sessionId: escaping.sessionId,
      group: 'share-escape-0001',
      destination: { type: 'channel', to: 'general', topic: 'meetings' },
    });
    expect(leaves.code).toBe('MEETING_NOT_SHAREABLE');
    expect(leaves.msg).toContain('leaves the manifest folder');
    expect(await messageCount()).toBe(before);
    expect(main.pushesOf('uploadProgress').some((p) => p.group === 'share-escape-0001')).toBe(
      false,
    );
  });

  it('refuses a file whose name the server would change, saying which and why', async () => {
    const before = await messageCount();
    const spaced = await open(
      meetingCopy((dir) => {
        const manifest = join(dir, 'manifest.json');
        const text = readFileSync(manifest, 'utf8');
        writeFileSync(manifest, text.replaceAll('"transcript.es.txt"', '"transcript es.txt"'));
        renameSync(join(dir, 'transcript.es.txt'), join(dir, 'transcript es.txt'));
      }),
    );
    const refused = await callError('meetingShareFiles', { sessionId: spaced.sessionId });
    expect(refused.code).toBe('MEETING_NOT_SHAREABLE');
    expect(refused.msg).toContain(
      'transcript es.txt: the server would store it as transcript-es.txt',
    );
    const shared = await callError('shareMeeting', {
      accountId: main.accountId,
      sessionId: spaced.sessionId,
      group: 'share-spaced-0001',
      destination: { type: 'channel', to: 'general', topic: 'meetings' },
    });
    expect(shared.code).toBe('MEETING_NOT_SHAREABLE');
    expect(await messageCount()).toBe(before);
  });

  it('cancelling one upload cancels the share: nothing is posted', async () => {
    const before = await messageCount();
    const session = await open(
      meetingCopy((dir) => writeFileSync(join(dir, 'recording.opus'), randomBytes(900 * 1024))),
    );
    const group = 'share-cancel-0001';
    const sharing = dispatch('shareMeeting', {
      accountId: main.accountId,
      sessionId: session.sessionId,
      group,
      destination: { type: 'channel', to: 'general', topic: 'meetings' },
    });
    const started = await main.waitForPush(
      'uploadProgress',
      (p) => p.group === group && p.name === 'recording.opus',
    );
    await call('cancelUpload', { uploadId: started.uploadId });
    const result = await sharing;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('CANCELLED');
    expect(await messageCount()).toBe(before);
  });

  it('refuses a recording over the server limit before a byte is sent, and posts nothing', async () => {
    const before = await messageCount();
    const big = await open(
      meetingCopy((dir) => writeFileSync(join(dir, 'recording.opus'), randomBytes(1536 * 1024))),
    );
    const refused = await callError('shareMeeting', {
      accountId: main.accountId,
      sessionId: big.sessionId,
      group: 'share-big-0001',
      destination: { type: 'channel', to: 'general', topic: 'meetings' },
    });
    expect(refused.code).toBe('FILE_TOO_LARGE');
    expect(main.pushesOf('uploadProgress').some((p) => p.group === 'share-big-0001')).toBe(false);
    expect(await messageCount()).toBe(before);
  });
});
