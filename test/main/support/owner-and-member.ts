// The usual set-up of the administration method tests: the demo realm, main signed in as the owner
// and (separately) as a member, an event queue for one more user, and a scratch folder for chosen
// files; started before the file's tests and closed after them. Read its members inside tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server';
import { registerQueue, type TestQueue } from '../../support/events';
import type { Params } from '../../support/client';
import { startMain, type MainHarness } from './harness';

export interface OwnerAndMember {
  realm: TestServer;
  owner: MainHarness;
  member: MainHarness;
  queue: TestQueue;
  dir: string;
}

/** `queue`: who listens (a demo user key) and the register parameters of their queue. */
export function ownerAndMember(queue: { who: string; params: Params }): OwnerAndMember {
  const session = {} as OwnerAndMember;
  beforeAll(async () => {
    session.realm = await startTestServer({ seed: 'demo' });
    session.owner = await startMain({ site: session.realm.url, user: session.realm.users.owner });
    session.member = await startMain({ site: session.realm.url, user: session.realm.users.dev });
    session.queue = await registerQueue(session.realm.client(queue.who), queue.params);
    session.dir = mkdtempSync(join(tmpdir(), 'tributary-admin-methods-'));
  });
  afterAll(async () => {
    await session.owner?.close();
    await session.member?.close();
    await session.realm?.close();
    if (session.dir) rmSync(session.dir, { recursive: true, force: true });
  });
  return session;
}
