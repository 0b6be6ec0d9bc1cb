// `manifest share` as a child process against the real local realm server: with a zuliprc and with an
// account stored by the app, to a topic and as a direct message; another user downloads every linked
// upload and gets the same bytes. Usage errors exit 64; a meeting that cannot be shared exits 1 and
// posts nothing.
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../electron/accounts/account-store';
import { FileVault } from '../../electron/accounts/vault';
import { startTestServer, type TestServer } from '../support/server';
import { manifestCli } from './support/cli';
import { WEEKLY, WEEKLY_SHARED_FILES } from './support/fixtures';

const SLOW = 120_000;

let realm: TestServer;
let dir: string;

beforeAll(async () => {
  realm = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'tributary-cli-share-'));
});
afterAll(async () => {
  await realm?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => manifestCli('share', ...args);

interface Shared {
  messageId: number;
  files: Array<{ name: string; url: string; size: number }>;
}

async function expectSharedBytes(shared: Shared, folder: string) {
  const emma = realm.client('emma');
  for (const file of shared.files) {
    const res = await fetch(`${realm.url}${file.url}`, {
      headers: { authorization: emma.authHeader! },
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(readFileSync(join(folder, file.name))), file.name).toBe(true);
  }
}

describe('manifest share', () => {
  it(
    'shares to a channel topic with a zuliprc: one message, every file byte for byte',
    async () => {
      const owner = realm.users.owner;
      const zuliprc = join(dir, 'zuliprc');
      writeFileSync(
        zuliprc,
        `[api]\nemail=${owner.email}\nkey=${owner.api_key}\nsite=${realm.url}\n`,
      );
      const result = await cli(
        join(WEEKLY, 'manifest.json'),
        '--to',
        'channel:general topic:weekly meetings',
        '--zuliprc',
        zuliprc,
        '--json',
      );
      expect(result.stderr).toContain('uploaded recording.opus');
      expect(result.status).toBe(0);
      const shared = JSON.parse(result.stdout) as Shared;
      expect(shared.files.map((f) => f.name)).toEqual(WEEKLY_SHARED_FILES);
      const res = await realm.client('emma').get(`/messages/${shared.messageId}`, {
        apply_markdown: false,
      });
      const message = res.body.message as { content: string; subject: string };
      expect(message.subject).toBe('weekly meetings');
      expect(message.content.split('\n')[0]).toBe('Meeting recording: Weekly planning (20.5 s)');
      await expectSharedBytes(shared, WEEKLY);
    },
    SLOW,
  );

  it(
    "shares as a direct message with the app's stored account",
    async () => {
      const dataDir = join(dir, 'app-data');
      const dev = realm.users.dev;
      new AccountStore(dataDir).upsert({
        id: 'acc1',
        site: realm.url,
        email: dev.email,
        userId: dev.user_id,
        realmName: 'Test',
        featureLevel: 372,
        secretBackend: 'file-0600',
        addedAt: Date.now(),
      });
      new FileVault(dataDir).put('acc1', dev.api_key);
      const emma = realm.users.emma;
      const result = await cli(
        join(WEEKLY, 'manifest.json'),
        '--to',
        `dm:${emma.email}`,
        '--data',
        dataDir,
        '--json',
      );
      expect(result.status).toBe(0);
      const shared = JSON.parse(result.stdout) as Shared;
      const res = await realm.client('emma').get(`/messages/${shared.messageId}`, {});
      const message = res.body.message as { type: string; sender_email: string };
      expect(message.type).toBe('private');
      expect(message.sender_email).toBe(dev.email);
      await expectSharedBytes(shared, WEEKLY);
    },
    SLOW,
  );

  it(
    'exits 64 on usage errors and 1 for a meeting that cannot be shared, posting nothing',
    async () => {
      const bad = await cli(join(WEEKLY, 'manifest.json'), '--to', 'channel:general');
      expect(bad.status).toBe(64);
      expect(bad.stderr).toContain('a channel needs a topic');

      const folder = join(dir, 'incomplete');
      cpSync(WEEKLY, folder, { recursive: true });
      unlinkSync(join(folder, 'transcript.raw.vtt'));
      const owner = realm.users.owner;
      const zuliprc = join(dir, 'zuliprc-owner');
      writeFileSync(
        zuliprc,
        `[api]\nemail=${owner.email}\nkey=${owner.api_key}\nsite=${realm.url}\n`,
      );
      const before = await realm.client('owner').get('/attachments', {});
      const result = await cli(
        join(folder, 'manifest.json'),
        '--to',
        'channel:general topic:incomplete',
        '--zuliprc',
        zuliprc,
      );
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('transcript.raw.vtt: no such file');
      const after = await realm.client('owner').get('/attachments', {});
      expect((after.body.attachments as unknown[]).length).toBe(
        (before.body.attachments as unknown[]).length,
      );
    },
    SLOW,
  );
});
