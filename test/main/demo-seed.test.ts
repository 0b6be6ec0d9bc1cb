// A first launch's account cache starts from the seed the build kept beside the demo realm's template
// (shared/demo-seed.ts, electron/cache/account-seed.ts). Against a realm really copied from a
// template with a shift of days: the seed, moved by that shift, is what the copy answers main's own
// register and first page (the test that keeps the seed from going stale); it is used only for the
// demo owner's first sign-in to a copy of its own template; it holds no key; and the session started
// from it shows it at once, then goes live once the page has painted.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../shared/api/endpoints';
import { DEFAULT_REGISTER_PARAMS, messagesParams } from '../../shared/api/register-params';
import type { RegisterResponse } from '../../shared/api/types';
import {
  ACCOUNT_SEED_FILE,
  DEMO_SEED_NOTE_FILE,
  SEEDED_PAGES,
  type AccountSeed,
} from '../../shared/demo-seed';
import { ApiClient } from '../../electron/api/client';
import { signInToLocalRealm } from '../../electron/bootstrap';
import { takeDemoSeed } from '../../electron/cache/account-seed';
import type { MainServices } from '../../electron/services';
import { PushHub } from '../../electron/push-hub';
import type { PushName } from '../../shared/ipc/contract';
import { credentialsPath, type SeededCredential } from '../../server/seed/credentials';
import { copyDemoTemplate } from '../../server/seed/template';
import type { DemoTemplateLocation } from '../../server/seed/template-stamp';
import { startTestServer, type TestServer } from '../support/server';
import { makeTestTemplate, readCredentials } from '../support/demo-template';
import { bareMainServices, eventually } from './support/harness';

/** As if the first launch came three days after the build. */
const SHIFT = 3 * 86_400;
const SITE = 'http://127.0.0.1:9';

let root: string;
let location: DemoTemplateLocation;
let seededAt: number;
let templateUsers: SeededCredential[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tributary-demo-seed-'));
  ({ location, seededAt, users: templateUsers } = await makeTestTemplate(root));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A realm folder copied from the template as a first launch's realm process copies it. */
function copiedRealm(shiftSeconds = SHIFT): string {
  const dir = mkdtempSync(join(root, 'local-realm-'));
  expect(copyDemoTemplate(location, dir, { nowSeconds: seededAt + shiftSeconds })).toBe(true);
  return dir;
}

function ownerOf(realmDir: string): SeededCredential {
  return readCredentials(realmDir).find((user) => user.role === 100 && !user.is_bot)!;
}

/**
 * Fields a register answers per request (its queue, the server's clock) or per start (who the demo
 * brings online, its echo bot's port), and what the seed leaves out (keys, webhook tokens).
 */
function comparable(register: RegisterResponse) {
  const {
    queue_id: _queue,
    last_event_id: _event,
    server_timestamp: _now,
    presences: _presences,
    ...rest
  } = register as RegisterResponse & { server_timestamp?: number };
  return {
    ...rest,
    // Outgoing webhooks' tokens are secrets of the copy (the seed has none), and the demo echo
    // bot's server listens on a port of its own at each start.
    realm_bots: (rest.realm_bots ?? []).map(({ api_key: _key, ...bot }) => ({
      ...bot,
      services: bot.services?.map(({ token: _token, base_url: _url, ...service }) => service),
    })),
  };
}

describe("the build's account seed against a realm copied from its template", () => {
  let server: TestServer;
  let realmDir: string;
  afterEach(async () => {
    await server?.close();
  });

  it("is, moved by the copy's shift, what the copy answers main's register and first page", async () => {
    realmDir = copiedRealm();
    const owner = ownerOf(realmDir);
    server = await startTestServer({ dataDir: realmDir, demoPresence: true });
    const seed = takeDemoSeed(realmDir, server.url, owner);
    expect(seed).not.toBeNull();
    const client = new ApiClient({
      site: server.url,
      credentials: { email: owner.email, apiKey: owner.api_key },
      userAgent: 'Tributary',
    });
    const live = await client.call(endpoints.register, DEFAULT_REGISTER_PARAMS);
    expect(comparable(seed!.register)).toEqual(comparable(live));
    // Without the demo's per-start presence, the copy's stored presence is what it answers: the
    // seed's, moved alike.
    const quiet = await startTestServer({ dataDir: copiedRealm() });
    try {
      const quietOwner = new ApiClient({
        site: quiet.url,
        credentials: { email: owner.email, apiKey: quiet.users.owner.api_key },
        userAgent: 'Tributary',
      });
      const stored = await quietOwner.call(endpoints.register, DEFAULT_REGISTER_PARAMS);
      expect(Object.keys(seed!.register.presences ?? {}).length).toBeGreaterThan(0);
      expect(seed!.register.presences).toEqual(stored.presences);
    } finally {
      await quiet.close();
    }
    expect(seed!.pages.map((p) => p.narrow)).toEqual(SEEDED_PAGES.map((p) => p.narrow));
    for (const { narrow, request, page } of seed!.pages) {
      const answered = await client.call(endpoints.getMessages, messagesParams(narrow, request));
      expect(page.messages.length).toBeGreaterThan(0);
      expect(page).toEqual(answered);
    }
  });

  it('holds no key: neither the template’s people’s nor a bot’s', () => {
    const text = readFileSync(join(location.dir, ACCOUNT_SEED_FILE), 'utf8');
    expect(text).not.toMatch(/api_key/);
    for (const user of templateUsers) expect(text).not.toContain(user.api_key);
  });

  it('is given once, for the owner of a copy of its own template, and for nothing else', () => {
    const dir = copiedRealm();
    const owner = ownerOf(dir);
    const emma = readCredentials(dir).find((u) => u.email === 'emma@tributary.local')!;
    expect(takeDemoSeed(dir, SITE, emma)).toBeNull();
    // The note is read once: the owner's sign-in after that takes the normal path too.
    expect(takeDemoSeed(dir, SITE, owner)).toBeNull();

    const again = copiedRealm();
    const note = JSON.parse(readFileSync(join(again, DEMO_SEED_NOTE_FILE), 'utf8'));
    // A template made again since the copy (another build): its seed is another realm's.
    writeFileSync(
      join(again, DEMO_SEED_NOTE_FILE),
      JSON.stringify({ ...note, stamp: { ...note.stamp, seededAt: note.stamp.seededAt - 1 } }),
    );
    expect(takeDemoSeed(again, SITE, ownerOf(again))).toBeNull();

    // A realm seeded in place (no template) leaves no note: nothing to take.
    const seededInPlace = mkdtempSync(join(root, 'seeded-'));
    expect(takeDemoSeed(seededInPlace, SITE, owner)).toBeNull();
  });
});

describe("a first launch's sign-in from the seed", () => {
  let server: TestServer;
  let services: MainServices;
  let dataDir: string;
  const pushes: Array<{ channel: PushName; payload: unknown }> = [];
  afterEach(async () => {
    await services?.stop();
    await server?.close();
  });

  it('shows the seed at once, then registers once the page has painted, and goes live', async () => {
    const realmDir = copiedRealm();
    const owner = ownerOf(realmDir);
    const seed = JSON.parse(
      readFileSync(join(location.dir, ACCOUNT_SEED_FILE), 'utf8'),
    ) as AccountSeed;
    server = await startTestServer({ dataDir: realmDir });
    dataDir = mkdtempSync(join(root, 'app-'));
    mkdirSync(dataDir, { recursive: true });
    const hub = new PushHub();
    hub.subscribe((channel, payload) => pushes.push({ channel, payload }));
    // The page's paint ends the wait (no timer within the test).
    services = bareMainServices(dataDir, { push: hub.push, cachedRegisterWaitMs: 10 * 60_000 });
    services.start();
    const id = (await signInToLocalRealm(services, server.url, credentialsPath(realmDir)))!;
    const session = services.session(id);
    const first = session.getSnapshot();
    expect(first).toMatchObject({ fromCache: true, seeded: true });
    expect(first.snapshot!.register.user_id).toBe(owner.user_id);
    expect(first.snapshot!.register.max_message_id).toBe(seed.register.max_message_id);
    // Dates as the copy's: moved by its shift.
    expect(first.snapshot!.register.realm_date_created).toBe(
      (seed.register.realm_date_created as number) + SHIFT,
    );
    expect(session.connection.status).toBe('connecting');
    expect(session.loop.connection.status).toBe('stopped');
    // The All messages view's first page comes from the seeded cache, its dates moved too.
    const cached = await services.handlers.getMessages({
      accountId: id,
      narrow: [],
      anchor: 'first_unread',
      numBefore: 50,
      numAfter: 50,
      includeAnchor: true,
    });
    expect(cached.from_cache).toBe(true);
    const seededPage = seed.pages[0].page.messages;
    expect(cached.messages.map((m) => m.id)).toEqual(seededPage.map((m) => m.id));
    expect(cached.messages[0].timestamp).toBe(seededPage[0].timestamp + SHIFT);
    // Written from the seeded screen: waits in the outbox, and is delivered once live.
    const streamId = first.snapshot!.register.subscriptions[0].stream_id;
    const queued = await services.handlers.sendMessage({
      accountId: id,
      message: { type: 'channel', to: streamId, topic: 'from the seed', content: 'hello early' },
    });
    expect(queued.state).toBe('queued');

    await services.handlers.snapshotShown({ accountId: id });
    await eventually(() => (session.isOnline() ? true : undefined));
    expect(session.connection.status).toBe('live');
    const fresh = session.getSnapshot();
    expect(fresh).toMatchObject({ fromCache: false, seeded: false });
    expect(fresh.snapshot!.queueId).not.toBe('');
    await eventually(async () => {
      const res = await server
        .client('owner')
        .get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[]' });
      return res.body.messages.at(-1)?.content === '<p>hello early</p>' ? true : undefined;
    });
    // Events apply: a message from someone else reaches main.
    const sent = await server.client('emma').post('/messages', {
      type: 'stream',
      to: JSON.stringify(streamId),
      topic: 'after the seed',
      content: 'welcome',
    });
    expect(sent.status).toBe(200);
    await eventually(() =>
      pushes.some(
        (p) =>
          p.channel === 'events' &&
          (p.payload as { events: Array<{ type: string; message?: { id: number } }> }).events.some(
            (e) => e.type === 'message' && e.message?.id === sent.body.id,
          ),
      )
        ? true
        : undefined,
    );
  });

  it('takes the normal path beside other accounts (the demo opened again)', async () => {
    const realmDir = copiedRealm();
    server = await startTestServer({ dataDir: realmDir });
    dataDir = mkdtempSync(join(root, 'app-'));
    services = bareMainServices(dataDir, { cachedRegisterWaitMs: 10 * 60_000 });
    services.start();
    const id = (await signInToLocalRealm(services, server.url, credentialsPath(realmDir), {
      besideOthers: true,
    }))!;
    const session = services.session(id);
    expect(session.getSnapshot()).toMatchObject({
      fromCache: false,
      seeded: false,
      snapshot: null,
    });
    await eventually(() => (session.isOnline() ? true : undefined));
  });
});
