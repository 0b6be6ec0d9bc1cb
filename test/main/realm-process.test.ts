// The local realm server's process as the app supervises it (server/process/supervisor.ts), against
// the real server: a taken port is said (or left for a free one on a first start), a killed process
// comes back on its port, deaths in a row are bounded and then wait for Retry, and stop() ends it.
// A first launch's child, forked by the launcher before the supervisor exists, is adopted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRealmStatus } from '../../shared/ipc/system';
import { RealmProcess, REALM_NICENESS } from '../../server/process/supervisor';
import { buildAll } from '../../scripts/build';
import { forkRealmEarly } from '../../server/process/fork-realm.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

const alive = (pid: number | undefined) => {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the local realm server process supervisor', () => {
  let dir: string;
  let blocker: Server;
  let takenPort: number;
  const processes: RealmProcess[] = [];
  const supervise = (options: Partial<ConstructorParameters<typeof RealmProcess>[0]> = {}) => {
    const seen: LocalRealmStatus[] = [];
    const realm = new RealmProcess({
      root,
      dataDir: dir,
      seed: 'demo',
      port: 0,
      restartDelaysMs: [50],
      onStatus: (status) => seen.push(status),
      ...options,
    });
    processes.push(realm);
    return { realm, seen };
  };

  beforeAll(async () => {
    await buildAll();
    dir = mkdtempSync(join(tmpdir(), 'tributary-realm-process-'));
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    takenPort = (blocker.address() as { port: number }).port;
  }, 180_000);

  afterAll(async () => {
    for (const realm of processes) await realm.stop();
    blocker.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says a taken port, or takes a free one on a first start when allowed', async () => {
    const { realm } = supervise({ port: takenPort });
    expect(await realm.start()).toEqual({
      state: 'failed',
      reason: `port ${takenPort} is taken by another program`,
    });
    expect(realm.pid).toBeUndefined();

    const moved = supervise({ port: takenPort, anyPortIfTaken: true });
    const status = await moved.realm.start();
    expect(status.state).toBe('running');
    expect(moved.realm.url).not.toContain(`:${takenPort}`);
    await moved.realm.stop();
  }, 60_000);

  it('ends a start stopped midway as stopped, not failed, and leaves no process', async () => {
    const { realm, seen } = supervise();
    const started = realm.start();
    const pid = realm.pid;
    expect(pid).toBeDefined();
    await realm.stop();
    expect(await started).toEqual({ state: 'stopped' });
    expect(seen.map((s) => s.state)).not.toContain('failed');
    expect(alive(pid)).toBe(false);
  }, 60_000);

  it('kills a child that does not report listening within the start timeout', async () => {
    const { realm } = supervise({ startTimeoutMs: 100 });
    const started = realm.start();
    const pid = realm.pid;
    expect(await started).toEqual({
      state: 'failed',
      reason: 'it did not start within 0.1 seconds',
    });
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  }, 60_000);

  it('restarts a killed process on its port, gives up after too many deaths in a row, and retries', async () => {
    const { realm, seen } = supervise();
    const first = await realm.start();
    expect(first.state).toBe('running');
    const url = realm.url;
    const health = async () => (await fetch(`${url}/api/v1/server_settings`)).status;
    expect(await health()).toBe(200);

    const pid = realm.pid;
    // Below the app's own priority: its boot does not take the cores from the window's first paint.
    expect(getPriority(pid!)).toBe(REALM_NICENESS);
    // Asked again (the launcher's start, then its wait for it): the same process, not another.
    expect(await realm.start()).toEqual(first);
    expect(realm.pid).toBe(pid);
    process.kill(pid!, 'SIGKILL');
    // Another process, running.
    await expect
      .poll(
        () => realm.status.state === 'running' && realm.pid !== undefined && realm.pid !== pid,
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    expect(realm.url).toBe(url);
    expect(await health()).toBe(200);
    expect(seen.map((s) => s.state)).toEqual(['starting', 'running', 'restarting', 'running']);
    expect(seen[2]).toMatchObject({ reason: 'stopped unexpectedly (SIGKILL)' });

    // One more death in a row than there are delays: it waits for the person.
    process.kill(realm.pid!, 'SIGKILL');
    await expect.poll(() => realm.status.state, { timeout: 30_000 }).toBe('failed');
    expect(realm.status).toEqual({
      state: 'failed',
      reason: 'it stopped unexpectedly (SIGKILL), 2 times in a row',
    });

    expect((await realm.retry()).state).toBe('running');
    expect(realm.url).toBe(url);
    const last = realm.pid;
    await realm.stop();
    expect(alive(last)).toBe(false);
  }, 90_000);

  it('adopts the child a first launch forked before it loaded, and hears what it said meanwhile', async () => {
    const firstLaunch = mkdtempSync(join(tmpdir(), 'tributary-realm-early-'));
    try {
      const early = forkRealmEarly({
        root,
        config: { dataDir: firstLaunch, port: 0, seed: 'demo' },
      });
      // It listens (and says so) before the supervisor exists.
      const said = await new Promise<{ type: string; url?: string }>((resolve) =>
        early.once('message', resolve),
      );
      expect(said.type).toBe('listening');
      const { realm, seen } = supervise({ dataDir: firstLaunch });
      expect(await realm.start()).toEqual({ state: 'running', url: said.url });
      expect(realm.pid).toBe(early.pid);
      expect(seen.map((s) => s.state)).toEqual(['starting', 'running']);
      // The copy of the build's demo realm signs its owner in with the keys it wrote.
      const owner = (
        JSON.parse(readFileSync(join(firstLaunch, 'demo-credentials.json'), 'utf8')) as {
          users: Array<{ email: string; api_key: string }>;
        }
      ).users[0];
      const me = await fetch(`${said.url}/api/v1/users/me`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${owner.email}:${owner.api_key}`).toString('base64')}`,
        },
      });
      expect(me.status).toBe(200);
      await realm.stop();
      expect(alive(early.pid)).toBe(false);

      // Forked for another start than the one the launch makes: stopped, and its own forked.
      const other = forkRealmEarly({ root, config: { dataDir: dir, port: 0, seed: 'demo' } });
      const second = supervise({ dataDir: firstLaunch });
      expect((await second.realm.start()).state).toBe('running');
      expect(second.realm.pid).not.toBe(other.pid);
      await expect.poll(() => alive(other.pid), { timeout: 10_000 }).toBe(false);
      await second.realm.stop();
    } finally {
      rmSync(firstLaunch, { recursive: true, force: true });
    }
  }, 90_000);
});
