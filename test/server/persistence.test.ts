// Server lifecycle: data survives a restart, migrations are versioned, queues do not survive,
// the empty seed, and the command line's single "listening on" line and graceful stop.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server';
import { registerQueue } from '../support/events';
import { migrations } from '../../server/db/migrations';
import { openDatabase } from '../../server/db';

describe('restart', () => {
  it('keeps users, channels, subscriptions, drafts, statuses and topics; drops queues', async () => {
    const server = await startTestServer();
    try {
      const dev = server.client('dev');
      await dev.post('/users/me/subscriptions', { subscriptions: [{ name: 'kept' }] });
      const general = (await dev.get('/get_stream_id', { stream: 'general' })).body.stream_id;
      await dev.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: general, property: 'pin_to_top', value: true }],
      });
      await dev.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'survivor' }] });
      await dev.post('/users/me/status', { status_text: 'persistent' });
      await dev.post('/user_topics', {
        stream_id: general,
        topic: 'kept topic',
        visibility_policy: 3,
      });
      const queue = await registerQueue(dev);
      const usersBefore = queue.state.realm_users.length;

      await server.restart();

      const state = (await dev.post('/register')).body;
      expect(state.subscriptions.map((s: { name: string }) => s.name)).toContain('kept');
      expect(
        state.subscriptions.find((s: { stream_id: number }) => s.stream_id === general).pin_to_top,
      ).toBe(true);
      expect(state.drafts.map((d: { content: string }) => d.content)).toEqual(['survivor']);
      expect(state.user_status[String(server.users.dev.user_id)].status_text).toBe('persistent');
      expect(
        state.user_topics.find((t: { topic_name: string }) => t.topic_name === 'kept topic'),
      ).toMatchObject({ stream_id: general, visibility_policy: 3 });
      // The demo seed is not applied twice.
      expect(state.realm_users).toHaveLength(usersBefore);
      const old = await dev.get('/events', {
        queue_id: queue.queueId,
        last_event_id: -1,
        dont_block: true,
      });
      expect(old.status).toBe(400);
      expect(old.body.code).toBe('BAD_EVENT_QUEUE_ID');
    } finally {
      await server.close();
    }
  });

  it('records the schema version and uses WAL', async () => {
    const server = await startTestServer({ seed: 'empty' });
    try {
      const db = new Database(join(server.dataDir, 'realm.sqlite3'), { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(
        migrations[migrations.length - 1].version,
      );
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      db.close();
    } finally {
      await server.close();
    }
  });
});

describe('migrations', () => {
  it('upgrades a folder created at schema version 1, keeping its data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tributary-migrate-'));
    try {
      const old = new Database(join(dir, 'realm.sqlite3'));
      migrations[0].up(old);
      old.pragma('user_version = 1');
      old.prepare("INSERT INTO realm (id, name, date_created) VALUES (1, 'Old realm', 0)").run();
      old.close();
      const db = openDatabase(dir);
      expect(db.pragma('user_version', { simple: true })).toBe(
        migrations[migrations.length - 1].version,
      );
      expect(db.prepare('SELECT name FROM realm').get()).toEqual({ name: 'Old realm' });
      expect(db.prepare('SELECT COUNT(*) AS n FROM linkifiers').get()).toEqual({ n: 0 });
      db.close();
      // Opening again applies nothing twice.
      const again = openDatabase(dir);
      expect(again.prepare('SELECT COUNT(*) AS n FROM realm').get()).toEqual({ n: 1 });
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('empty seed', () => {
  it('creates one owner who can sign in, and no channels', async () => {
    const server = await startTestServer({ seed: 'empty' });
    try {
      const owner = server.client('owner@tributary.local');
      const me = await owner.get('/users/me');
      expect(me.body).toMatchObject({ role: 100, is_owner: true });
      expect((await owner.get('/streams')).body.streams).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('command line', () => {
  it('prints one listening line, serves, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tributary-cli-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', '--port', '0', '--data', dataDir, '--seed', 'empty'],
      { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const lines = createInterface({ input: child.stdout! });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = first.slice('listening on '.length);
      const res = await fetch(`${url}/api/v1/server_settings`);
      expect(res.status).toBe(200);
      const creds = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
      expect(creds.users[0]).toMatchObject({
        role: 100,
        api_key: expect.any(String),
        password: expect.any(String),
      });
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
