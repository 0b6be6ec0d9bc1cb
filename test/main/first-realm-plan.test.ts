// A first launch whose realm the launcher planned before forking it (fork-realm.mjs,
// planFirstRealm: its port, the demo owner's key, the copy's time): main signs the owner in and
// fills the cache from the build's seed before the realm process listens (electron/local-realm.ts),
// so the page shows the app while that process still loads. Against the real realm process, copied
// from the build's template: the account then goes live, what was sent meanwhile is delivered, and
// events apply. Faults: the planned port taken by another program (the realm moves, the account
// follows), and a realm that was not copied with the planned key (main signs in with the file's).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalRealm } from '../../electron/local-realm';
import type { MainServices } from '../../electron/services';
import { PushHub } from '../../electron/push-hub';
import { buildAll } from '../../scripts/build';
import { planFirstRealm, type FirstRealmPlan } from '../../server/process/fork-realm.mjs';
import { DEMO_TEMPLATE_DIR } from '../../server/process/supervisor';
import { credentialsPath, type SeededCredential } from '../../server/seed/credentials';
import { DEMO_SEED_NOTE_FILE } from '../../shared/demo-seed';
import { bareMainServices, eventually } from './support/harness';

const root = fileURLToPath(new URL('../..', import.meta.url));

function ownerIn(realmDir: string): SeededCredential {
  const users = (
    JSON.parse(readFileSync(credentialsPath(realmDir), 'utf8')) as { users: SeededCredential[] }
  ).users;
  return users.find((user) => user.role === 100 && !user.is_bot)!;
}

/** The realm's newest message, asked as its owner. */
async function newest(url: string, owner: { email: string; key: string }): Promise<string> {
  const auth = Buffer.from(`${owner.email}:${owner.key}`).toString('base64');
  const res = await fetch(
    `${url}/api/v1/messages?anchor=newest&num_before=1&num_after=0&narrow=%5B%5D`,
    { headers: { authorization: `Basic ${auth}` } },
  );
  const body = (await res.json()) as { messages: Array<{ content: string }> };
  return body.messages.at(-1)?.content ?? '';
}

describe('a first launch whose realm the launcher planned', () => {
  const dirs: string[] = [];
  let realm: LocalRealm | null = null;
  let services: MainServices | null = null;
  let blocker: Server | null = null;
  let pushes: Array<{ channel: string; payload: unknown }> = [];

  beforeAll(async () => {
    await buildAll();
  }, 300_000);
  afterEach(async () => {
    await services?.stop();
    await realm?.stop();
    blocker?.close();
    services = realm = blocker = null;
    pushes = [];
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function launch(plan: FirstRealmPlan): { dataDir: string; realm: LocalRealm } {
    const dataDir = mkdtempSync(join(tmpdir(), 'tributary-first-plan-'));
    dirs.push(dataDir);
    realm = new LocalRealm({ dataDir, root, seed: 'demo', firstRealm: plan });
    const hub = new PushHub();
    hub.subscribe((channel, payload) => pushes.push({ channel, payload }));
    // The page's paint ends the wait (no timer within the test).
    services = bareMainServices(dataDir, {
      localRealm: realm,
      push: hub.push,
      cachedRegisterWaitMs: 10 * 60_000,
    });
    return { dataDir, realm };
  }

  it('shows the seed before the realm listens, then goes live and delivers what was sent meanwhile', async () => {
    const plan = await planFirstRealm();
    const { dataDir, realm } = launch(plan);
    services!.start();
    // Signed in before the realm process is even forked: nothing waits for it.
    await realm.signInWhenRunning(services!);
    const account = await eventually(() => services!.accounts.list()[0]);
    expect(account.site).toBe(`http://127.0.0.1:${plan.port}`);
    expect(realm.status()).toEqual({ state: 'starting' });
    const session = services!.session(account.id);
    const first = session.getSnapshot();
    expect(first).toMatchObject({ fromCache: true, seeded: true });
    expect(first.snapshot!.register.realm_url).toBe(account.site);
    expect(session.connection.status).toBe('connecting');
    // Written from the seeded screen while the realm is not up: it waits in the outbox.
    const streamId = first.snapshot!.register.subscriptions[0].stream_id;
    const queued = await services!.handlers.sendMessage({
      accountId: account.id,
      message: { type: 'channel', to: streamId, topic: 'before the realm', content: 'hello early' },
    });
    expect(queued.state).toBe('queued');
    // The page painted: its register is refused until the realm listens.
    await services!.handlers.snapshotShown({ accountId: account.id });

    expect(await realm.start()).toEqual({ state: 'running', url: account.site });
    await eventually(() => (session.isOnline() ? true : undefined), 60_000);
    expect(session.getSnapshot()).toMatchObject({ fromCache: false, seeded: false });
    // The copy's owner has the planned key; the others keys of the copy's own.
    const realmDir = join(dataDir, 'local-realm');
    const owner = ownerIn(realmDir);
    expect(owner.api_key).toBe(plan.ownerKey);
    expect(ownerIn(join(root, DEMO_TEMPLATE_DIR)).api_key).not.toBe(plan.ownerKey);
    const ownerAuth = { email: owner.email, key: plan.ownerKey };
    await eventually(async () =>
      (await newest(account.site, ownerAuth)) === '<p>hello early</p>' ? true : undefined,
    );
    // Events apply: what someone else sends reaches main.
    const emma = (
      JSON.parse(readFileSync(credentialsPath(realmDir), 'utf8')) as { users: SeededCredential[] }
    ).users.find((user) => !user.is_bot && user.user_id !== owner.user_id)!;
    const sent = await fetch(`${account.site}/api/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${emma.email}:${emma.api_key}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        type: 'stream',
        to: JSON.stringify(streamId),
        topic: 'after the realm',
        content: 'welcome',
      }),
    });
    const { id } = (await sent.json()) as { id: number };
    await eventually(() =>
      pushes.some(
        (p) =>
          p.channel === 'events' &&
          (p.payload as { events: Array<{ type: string; message?: { id: number } }> }).events.some(
            (e) => e.type === 'message' && e.message?.id === id,
          ),
      )
        ? true
        : undefined,
    );
    // The realm's note of the seed was for a sign-in without a plan: gone.
    await eventually(() => (existsSync(join(realmDir, DEMO_SEED_NOTE_FILE)) ? undefined : true));
    // Never on the realm process's command line.
    const pid = realm.pid!;
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain(plan.ownerKey);
  }, 120_000);

  it('moves the account when the planned port was taken meanwhile, and goes live there', async () => {
    const plan = await planFirstRealm();
    const { realm } = launch(plan);
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(plan.port, '127.0.0.1', resolve));
    services!.start();
    await realm.signInWhenRunning(services!);
    const account = await eventually(() => services!.accounts.list()[0]);
    await services!.handlers.snapshotShown({ accountId: account.id });
    const status = await realm.start();
    expect(status.state).toBe('running');
    expect(realm.url).not.toBe(account.site);
    await eventually(() => (services!.accounts.list()[0]?.site === realm.url ? true : undefined));
    await goesLive(services!, account.id);
  }, 120_000);

  it('signs in with the realm’s own key when the realm was not copied with the planned one', async () => {
    const plan = await planFirstRealm();
    const { dataDir, realm } = launch(plan);
    // A realm already in the folder (a launch stopped after its copy): it is not copied again.
    const realmDir = join(dataDir, 'local-realm');
    mkdirSync(realmDir, { recursive: true });
    const template = join(root, DEMO_TEMPLATE_DIR);
    for (const name of ['realm.sqlite3', 'uploads', 'demo-credentials.json'])
      cpSync(join(template, name), join(realmDir, name), { recursive: true });
    services!.start();
    await realm.signInWhenRunning(services!);
    const account = await eventually(() => services!.accounts.list()[0]);
    await services!.handlers.snapshotShown({ accountId: account.id });
    expect((await realm.start()).state).toBe('running');
    expect(ownerIn(realmDir).api_key).not.toBe(plan.ownerKey);
    await goesLive(services!, account.id);
    expect(services!.accounts.list()).toHaveLength(1);
  }, 120_000);
});

/**
 * Waits until the account's session is live. It is started again when the account moves or is
 * re-keyed, and the page, shown it anew, says again that it painted.
 */
async function goesLive(services: MainServices, accountId: string): Promise<void> {
  await eventually(async () => {
    await Promise.resolve()
      .then(() => services.handlers.snapshotShown({ accountId }))
      .catch(() => undefined);
    try {
      return services.session(accountId).isOnline() ? true : undefined;
    } catch {
      return undefined;
    }
  }, 60_000);
}
