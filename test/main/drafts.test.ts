// Drafts are never lost: saved on disk by main first, synced with the server's drafts when the user's
// enable_drafts_synchronization is on, kept locally across an offline restart, and merged from other
// clients' drafts events.
import { describe, expect, it } from 'vitest';
import type { LocalDraft } from '../../shared/ipc/drafts';
import type { TestServer } from '../support/server';
import type { FaultProxy } from './support/fault-proxy';
import { eventually, type MainHarness } from './support/harness';
import { mainThroughProxy } from './support/through-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let main: MainHarness;
let streamId: number;

mainThroughProxy('emma', (env) => {
  ({ realm, proxy, main } = env);
  streamId = env.snapshot.register.subscriptions[0].stream_id;
});

const drafts = () => main.services.session(main.accountId).drafts.list();
const serverDrafts = async () => {
  const res = await realm.client('emma').get('/drafts');
  expect(res.status).toBe(200);
  return res.body.drafts as Array<{ id: number; content: string }>;
};
const save = (content: string, key?: string) =>
  main.services.handlers.saveDraft({
    accountId: main.accountId,
    key,
    draft: { type: 'stream', to: [streamId], topic: 'drafts', content },
  }) as LocalDraft;

describe('drafts', () => {
  it('saves locally at once and syncs to the server, then follows edits and deletes', async () => {
    const saved = save('first words');
    expect(drafts().map((d) => d.draft.content)).toContain('first words');
    const synced = await eventually(() =>
      drafts().find((d) => d.key === saved.key && d.synced && d.serverId),
    );
    expect((await serverDrafts()).find((d) => d.id === synced.serverId)?.content).toBe(
      'first words',
    );

    save('second words', saved.key);
    await eventually(async () =>
      (await serverDrafts()).find((d) => d.id === synced.serverId)?.content === 'second words'
        ? true
        : undefined,
    );
    main.services.handlers.deleteDraft({ accountId: main.accountId, key: saved.key });
    await eventually(async () =>
      (await serverDrafts()).some((d) => d.id === synced.serverId) ? undefined : true,
    );
    expect(drafts().find((d) => d.key === saved.key)).toBeUndefined();
  });

  it('an edit made while its create is in flight reaches the server too, even within the same second', async () => {
    proxy.inject({ path: '/api/v1/drafts', method: 'POST', action: { delayMs: 300 } });
    const saved = save('typed first');
    save('typed next', saved.key); // the create above has not been answered yet
    const synced = await eventually(() =>
      drafts().find((d) => d.key === saved.key && d.synced && d.serverId),
    );
    expect(synced.draft.content).toBe('typed next');
    await eventually(async () =>
      (await serverDrafts()).find((d) => d.id === synced.serverId)?.content === 'typed next'
        ? true
        : undefined,
    );
  });

  it('keeps a draft typed offline across a restart and syncs it when the connection returns', async () => {
    await proxy.refuseConnections();
    main.services.wakeAll();
    await eventually(() => (main.services.session(main.accountId).isOnline() ? undefined : true));
    const saved = save('typed on a train');
    await main.restart();
    expect(drafts().find((d) => d.key === saved.key)).toMatchObject({
      synced: false,
      serverId: null,
    });
    await proxy.acceptConnections();
    main.services.wakeAll();
    const synced = await eventually(() => drafts().find((d) => d.key === saved.key && d.synced));
    expect(
      (await serverDrafts()).some(
        (d) => d.id === synced.serverId && d.content === 'typed on a train',
      ),
    ).toBe(true);
    // Exactly one copy on the server, and locally one entry for it (the echo event merged, not added).
    expect((await serverDrafts()).filter((d) => d.content === 'typed on a train')).toHaveLength(1);
    expect(drafts().filter((d) => d.draft.content === 'typed on a train')).toHaveLength(1);
  });

  it('an edit made offline outlives a deletion on the server; an unedited draft follows it', async () => {
    const edited = save('will be edited offline');
    const untouched = save('left alone');
    const [first, second] = await eventually(() => {
      const both = [edited, untouched].map((s) =>
        drafts().find((d) => d.key === s.key && d.synced && d.serverId),
      );
      return both.every(Boolean) ? both : undefined;
    });
    await proxy.refuseConnections();
    main.services.wakeAll();
    await eventually(() => (main.services.session(main.accountId).isOnline() ? undefined : true));
    save('edited on a train', edited.key);
    // Meanwhile the user's other client deletes both drafts.
    for (const id of [first!.serverId, second!.serverId]) {
      expect((await realm.client('emma').delete(`/drafts/${id}`)).status).toBe(200);
    }
    await proxy.acceptConnections();
    main.services.wakeAll();
    // (The server may hand the new draft the old id again: SQLite reuses the highest freed rowid.)
    const onServer = await eventually(async () => {
      const all = await serverDrafts();
      return all.some((d) => d.content === 'edited on a train') ? all : undefined;
    });
    const recreated = await eventually(() =>
      drafts().find((d) => d.key === edited.key && d.synced),
    );
    expect(recreated.draft.content).toBe('edited on a train');
    expect(onServer.filter((d) => d.content === 'edited on a train')).toEqual([
      expect.objectContaining({ id: recreated.serverId }),
    ]);
    expect(onServer.some((d) => d.content === 'left alone')).toBe(false);
    await eventually(() => (drafts().some((d) => d.key === untouched.key) ? undefined : true));
  });

  it("merges a draft written by the user's other client", async () => {
    const res = await realm.client('emma').post('/drafts', {
      drafts: [{ type: 'stream', to: [streamId], topic: 'elsewhere', content: 'from my phone' }],
    });
    expect(res.status).toBe(200);
    const merged = await eventually(() =>
      drafts().find((d) => d.draft.content === 'from my phone'),
    );
    expect(merged).toMatchObject({ serverId: res.body.ids[0], synced: true });
    await main.waitForPush('drafts', (p) =>
      p.drafts.some((d) => d.draft.content === 'from my phone'),
    );
  });
});
