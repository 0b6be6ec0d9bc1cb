// Group commit for sends: concurrent writes share a transaction, a failing write rolls back alone,
// and concurrent POST /messages all land with distinct ids and events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../server/db';
import { WriteBatcher } from '../../server/resources/messages/messages-write-batch';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

describe('WriteBatcher', () => {
  let dir: string;
  let db: Db;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tributary-batch-'));
    db = openDatabase(dir);
    db.exec('CREATE TABLE IF NOT EXISTS batch_probe (value TEXT NOT NULL)');
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits jobs submitted together and rolls back only the one that fails', async () => {
    const batcher = new WriteBatcher(db, 0);
    const insert = (value: string) => () =>
      db.prepare('INSERT INTO batch_probe (value) VALUES (?)').run(value).changes;
    const results = await Promise.allSettled([
      batcher.run(insert('a')),
      batcher.run(() => {
        insert('doomed')();
        throw new Error('boom');
      }),
      batcher.run(insert('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('boom');
    const values = db
      .prepare<[], { value: string }>('SELECT value FROM batch_probe ORDER BY rowid')
      .all()
      .map((r) => r.value);
    expect(values).toEqual(['a', 'c']);
  });

  it('spaces commits while sends overlap, and commits a lone send at once', async () => {
    // `ran` counts jobs since the last commit: each job's promise settles only after its commit,
    // and resets the count, so a job in a later commit starts again from 1.
    let ran = 0;
    const job = () => ++ran;
    const submit = (batcher: WriteBatcher) =>
      batcher.run(job).then((n) => {
        ran = 0;
        return n;
      });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

    const spaced = new WriteBatcher(db, 1_000);
    // A commit of one send: the next send is committed on its own, without waiting.
    await submit(spaced);
    const lone = submit(spaced);
    await pause();
    const after = submit(spaced);
    expect(await Promise.all([lone, after])).toEqual([1, 1]);
    // A commit of two sends (they overlapped): the next sends wait for the interval, together.
    await Promise.all([submit(spaced), submit(spaced)]);
    const a = submit(spaced);
    await pause(); // well after a's arrival, far within the interval
    const b = submit(spaced);
    expect(await Promise.all([a, b])).toEqual([1, 2]);
  }, 15_000);

  it('rejects every job when the database is gone', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'tributary-batch-closed-'));
    const other = openDatabase(otherDir);
    const batcher = new WriteBatcher(other, 0);
    const pending = batcher.run(() => 1);
    other.close();
    await expect(pending).rejects.toThrow();
    rmSync(otherDir, { recursive: true, force: true });
  });
});

describe('concurrent sends', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 'demo' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores every message of a burst once, in id order, with one event each', async () => {
    const queue = await registerQueue(server.client('emma'), { event_types: ['message'] });
    const senders = ['dev', 'farid', 'owner', 'admin', 'moderator'];
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        server.client(senders[i % senders.length]).post('/messages', {
          type: 'channel',
          to: 'general',
          topic: 'burst',
          content: `burst ${i}`,
        }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const sentIds = responses.map((r) => r.body.id as number);
    expect(new Set(sentIds).size).toBe(30);
    const received: number[] = [];
    while (received.length < 30) {
      for (const event of await queue.next()) received.push(event.message.id);
    }
    expect(received).toEqual([...sentIds].sort((a, b) => a - b));
  });
});
