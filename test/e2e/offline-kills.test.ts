// Crashes during the replay of what was done offline, end to end. The person works with the server
// gone (sends to a topic, to a new topic and a direct message; stars, reacts and takes a reaction
// back, edits and deletes their own messages, marks a conversation unread, follows and mutes
// topics). Then the server returns, and while the app replays all of it, the app's process (`npm
// start -- --browser`, which holds main and its queues) and the realm server's are SIGKILLed, one,
// the other or both, at the replay of seeded-random items: before the server sees the request, or
// after it committed it and before its answer reaches the app. Each is started again on the same
// data. At the end every action is on the server exactly once (read over REST by a separate client)
// and the app shows it. KILL_SEED=n runs the seed a failure names.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../main/support/fault-proxy';
import {
  CHROMIUM,
  launchChromium,
  openApp,
  realmClient,
  startAppProcess,
  startRealmProcess,
  type AppProcess,
  type RealmProcess,
} from './support/app';
import { generator } from '../../server/seed/demo-messages';
import { messageMenu, messageWithText, openTopic, react, send } from './support/ui';

const SEED = Number(process.env.KILL_SEED ?? Math.floor(Math.random() * 1_000_000));

type Victim = 'app' | 'realm' | 'both';
interface Kill {
  /**
   * The queued item (1-based, in the order they leave the queues: messages, then actions) whose
   * replay it comes at: the first replay request made while that item is the one at the head.
   * Counted by what is left in main's queues on disk, so attempts made again after a crash do not
   * move the later kills, and every item can be hit.
   */
  at: number;
  victim: Victim;
  /** After the server has committed the request (its answer then lost), or before it sees it. */
  committed: boolean;
}

/**
 * Four kills at distinct items among `items` (each item makes at least one replay request, so all
 * are reached): one of the app, one of the server, one of both, and one more of any.
 */
function killPlan(seed: number, items: number): Kill[] {
  const next = generator(seed);
  const victims: Victim[] = [
    'app',
    'realm',
    'both',
    (['app', 'realm', 'both'] as const)[Math.floor(next() * 3)]!,
  ];
  for (let i = victims.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [victims[i], victims[j]] = [victims[j]!, victims[i]!];
  }
  const points = new Set<number>();
  while (points.size < victims.length) points.add(1 + Math.floor(next() * items));
  return [...points]
    .sort((a, b) => a - b)
    .map((at, i) => ({ at, victim: victims[i]!, committed: next() < 0.5 }));
}

/** A request of the replay: a send or an action (reads, registration and presence are not). */
function replayRequest(method: string, path: string): boolean {
  return method !== 'GET' && /^\/api\/v1\/(messages(\/.*)?|user_topics)$/.test(path);
}

const TOPIC = 'crash course';
/** Marked unread and muted offline; not opened again afterwards (that would read it). */
const UNREAD_TOPIC = 'crash later';
const NEW_TOPIC = 'born offline';
const TEXT = {
  star: 'a message to star before the crash',
  react: 'a message to react to before the crash',
  unreact: 'a message to take a reaction back from',
  edit: 'my text before the crash',
  edited: 'my text after the crash',
  doomed: 'my message to delete offline',
  unread: 'a message to read again after the crash',
  dmBefore: 'a direct message before the crash',
  toTopic: 'sent offline to an existing topic',
  twice: 'on my way',
  toNewTopic: 'sent offline to a new topic',
  toDm: 'sent offline as a direct message',
};

const folder = (app: AppProcess) => join(app.dataDir, 'accounts', app.accountId);
function onDisk(app: AppProcess, file: 'actions.json' | 'outbox.json'): unknown[] {
  const path = join(folder(app), file);
  if (!existsSync(path)) return [];
  const stored = JSON.parse(readFileSync(path, 'utf8')) as {
    actions?: unknown[];
    entries?: unknown[];
  };
  return (file === 'actions.json' ? stored.actions : stored.entries) ?? [];
}

/** A message waiting in the outbox, as the list shows it (below the messages, "Queued: …"). */
const queued = (page: Page, text: string) =>
  page.getByTestId('outbox-message').filter({ hasText: text });

async function topicMenu(page: Page, topic: string, item: string) {
  await page
    .locator('.message-list-wrap')
    .getByRole('button', { name: `Topic ${topic} options` })
    .filter({ visible: true })
    .first()
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe.skipIf(!existsSync(CHROMIUM))(`hard kills during replay (KILL_SEED=${SEED})`, () => {
  let realm: RealmProcess;
  let proxy: FaultProxy;
  let app: AppProcess;
  let browser: Browser;

  beforeAll(async () => {
    realm = await startRealmProcess();
    // The app reaches the server through the proxy, which sees each replay request and whose
    // target follows the server to the port of each start.
    proxy = await startFaultProxy(() => realm.url);
    app = await startAppProcess({ url: proxy.url, user: (key) => realm.user(key) }, 'owner');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await proxy?.close();
    await realm?.close();
  });

  it('delivers every action exactly once although the app and the server are killed during the replay', async () => {
    const owner = realmClient(realm, 'owner');
    const emma = realmClient(realm, 'emma');
    const emmaId = realm.user('emma').user_id;
    const post = async (client: typeof owner, content: string, topic = TOPIC) =>
      (await client.post('/messages', { type: 'stream', to: 'general', topic, content })).body
        .id as number;
    const starId = await post(emma, TEXT.star);
    const reactId = await post(emma, TEXT.react);
    const unreactId = await post(emma, TEXT.unreact);
    await owner.post(`/messages/${unreactId}/reactions`, { emoji_name: 'heart' });
    const editId = await post(owner, TEXT.edit);
    const doomedId = await post(owner, TEXT.doomed);
    const unreadId = await post(emma, TEXT.unread, UNREAD_TOPIC);
    await emma.post('/messages', {
      type: 'direct',
      to: [realm.user('owner').user_id],
      content: TEXT.dmBefore,
    });
    const message = async (id: number) =>
      (await owner.get(`/messages/${id}`, { apply_markdown: false })).body as {
        result: string;
        raw_content: string;
        message: { flags: string[]; reactions: Array<{ emoji_name: string; user_id: number }> };
      };

    // Seen before the outage: each conversation is kept on this computer, the one marked unread
    // later is read on the server.
    let page = await openApp(browser, app);
    await openTopic(page, 'general', UNREAD_TOPIC);
    await messageWithText(page, TEXT.unread).waitFor();
    await expect.poll(async () => (await message(unreadId)).message.flags).toContain('read');
    const search = page.getByRole('combobox', { name: 'Search messages' });
    await search.fill(`dm:${realm.user('emma').email}`);
    await search.press('Enter');
    await messageWithText(page, TEXT.dmBefore).waitFor();
    await openTopic(page, 'general', TOPIC);
    await messageWithText(page, TEXT.doomed).waitFor();

    // The outage is a crash of the server.
    await realm.kill();
    await page.getByTestId('connection-banner').waitFor({ timeout: 30_000 });

    await messageMenu(page, TEXT.star, /^Star/);
    await messageWithText(page, TEXT.star).getByRole('img', { name: 'Starred' }).waitFor();
    await react(page, TEXT.react, 'octopus');
    const unreactRow = messageWithText(page, TEXT.unreact);
    await unreactRow.getByRole('button', { name: /^heart: 1/ }).click();
    await unreactRow.getByRole('button', { name: /^heart: / }).waitFor({ state: 'detached' });
    await messageMenu(page, TEXT.edit, 'Edit message');
    await page.getByRole('textbox', { name: 'Edit message content' }).fill(TEXT.edited);
    await page.getByRole('button', { name: 'Save' }).click();
    await messageWithText(page, TEXT.edited).waitFor();
    await messageMenu(page, TEXT.doomed, 'Delete message');
    await page
      .getByRole('alertdialog', { name: 'Delete message?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await messageWithText(page, TEXT.doomed).waitFor({ state: 'detached' });
    await topicMenu(page, TOPIC, 'Follow topic');
    await send(page, TEXT.toTopic);
    await queued(page, TEXT.toTopic).waitFor();
    // Twice the same words: two messages, which must not be taken for each other's copy.
    await send(page, TEXT.twice);
    await queued(page, TEXT.twice).waitFor();
    await send(page, TEXT.twice);
    await expect.poll(() => queued(page, TEXT.twice).count()).toBe(2);

    await openTopic(page, 'general', UNREAD_TOPIC);
    await messageMenu(page, TEXT.unread, 'Mark as unread from here');
    await topicMenu(page, UNREAD_TOPIC, 'Mute topic');
    await openTopic(page, 'general', NEW_TOPIC);
    await send(page, TEXT.toNewTopic);
    await queued(page, TEXT.toNewTopic).waitFor();
    await search.fill(`dm:${realm.user('emma').email}`);
    await search.press('Enter');
    await messageWithText(page, TEXT.dmBefore).waitFor();
    await send(page, TEXT.toDm);
    await queued(page, TEXT.toDm).waitFor();

    // All of it is in main's queues on disk: the five messages and the eight actions (with any
    // reading the person did meanwhile, which is queued too).
    const kinds = () =>
      (onDisk(app, 'actions.json') as Array<{ action: { kind: string; payload: unknown } }>).map(
        (a) => a.action.kind,
      );
    await expect.poll(() => onDisk(app, 'outbox.json').length, { timeout: 15_000 }).toBe(5);
    await expect
      .poll(
        () =>
          kinds()
            .filter((kind) => kind !== 'updateFlags')
            .sort(),
        { timeout: 15_000 },
      )
      .toEqual([
        'addReaction',
        'deleteMessage',
        'editMessage',
        'removeReaction',
        'setUserTopic',
        'setUserTopic',
        'updateFlagsForNarrow',
      ]);
    await page.context().close();

    // The server returns, and the replay is crashed into at the planned items.
    const left = () => onDisk(app, 'actions.json').length + onDisk(app, 'outbox.json').length;
    const items = left();
    const plan = killPlan(SEED, items);
    const fired: Kill[] = [];
    for (const kill of plan) {
      let request = '';
      proxy.inject({
        path: '/api/v1/*',
        when: (method, path) => {
          request = `${method} ${path}`;
          return replayRequest(method, path) && left() <= items - kill.at + 1;
        },
        action: kill.committed ? 'drop-response' : 'drop-request',
        onFire: async () => {
          if (kill.victim !== 'realm') await app.kill();
          if (kill.victim !== 'app') await realm.kill();
          fired.push(kill);
          if (process.env.DEBUG_FAULTS)
            console.log(`killed ${kill.victim} at ${request} (item ${kill.at} of ${items})`, kill);
        },
      });
    }
    await realm.start();
    for (const kill of plan) {
      await expect
        .poll(() => fired.includes(kill), {
          timeout: 60_000,
          message: `kill ${JSON.stringify(kill)} (KILL_SEED=${SEED}) never came`,
        })
        .toBe(true);
      if (kill.victim !== 'app') await realm.start();
      if (kill.victim !== 'realm') await app.start();
    }
    await expect
      .poll(() => onDisk(app, 'actions.json').length + onDisk(app, 'outbox.json').length, {
        timeout: 60_000,
      })
      .toBe(0);

    // Exactly once each, as a separate client reads the server.
    const inTopic = async (narrow: object[]) =>
      (
        (
          await owner.get('/messages', {
            anchor: 'newest',
            num_before: 100,
            num_after: 0,
            narrow: JSON.stringify(narrow),
            apply_markdown: false,
          })
        ).body.messages as Array<{ content: string }>
      ).map((m) => m.content);
    const general = await inTopic([{ operator: 'channel', operand: 'general' }]);
    expect(general.filter((c) => c === TEXT.toTopic)).toHaveLength(1);
    expect(general.filter((c) => c === TEXT.toNewTopic)).toHaveLength(1);
    expect(general.filter((c) => c === TEXT.twice)).toHaveLength(2);
    const dms = await inTopic([{ operator: 'dm', operand: [emmaId] }]);
    expect(dms.filter((c) => c === TEXT.toDm)).toHaveLength(1);
    expect((await message(starId)).message.flags).toContain('starred');
    const reactions = (await message(reactId)).message.reactions;
    expect(reactions.filter((r) => r.emoji_name === 'octopus')).toHaveLength(1);
    expect((await message(unreactId)).message.reactions).toEqual([]);
    expect((await message(editId)).raw_content).toBe(TEXT.edited);
    const history = await owner.get(`/messages/${editId}/history`, {});
    expect(history.body.message_history as unknown[]).toHaveLength(2); // the original, one edit
    expect((await message(doomedId)).result).toBe('error');
    expect((await message(unreadId)).message.flags).not.toContain('read');
    const registered = await owner.post('/register', { fetch_event_types: ['user_topic'] });
    const policy = (topic: string) =>
      (
        registered.body.user_topics as Array<{ topic_name: string; visibility_policy: number }>
      ).find((t) => t.topic_name === topic)?.visibility_policy;
    expect([policy(TOPIC), policy(UNREAD_TOPIC)]).toEqual([3, 1]);
    expect(fired).toEqual(plan);

    // The app shows the server's state, and nothing was refused.
    page = await openApp(browser, app);
    await openTopic(page, 'general', TOPIC);
    await messageWithText(page, TEXT.edited).waitFor();
    await messageWithText(page, TEXT.star).getByRole('img', { name: 'Starred' }).waitFor();
    await messageWithText(page, TEXT.react)
      .getByRole('button', { name: /^octopus: 1/ })
      .waitFor();
    expect(await messageWithText(page, TEXT.toTopic).count()).toBe(1);
    expect(await messageWithText(page, TEXT.twice).count()).toBe(2);
    expect(await page.getByTestId('outbox-message').count()).toBe(0);
    expect(await messageWithText(page, TEXT.doomed).count()).toBe(0);
    expect(
      await messageWithText(page, TEXT.unreact)
        .getByRole('button', { name: /^heart: / })
        .count(),
    ).toBe(0);
    expect(await page.getByText(/was refused|changed elsewhere meanwhile/).count()).toBe(0);
    await page.context().close();
  }, 240_000);
});
