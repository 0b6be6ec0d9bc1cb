/**
 * Helpers shared by the message tests (send, fetch, edit, flags, reactions, narrows). All talk to
 * the real server over HTTP; the few direct SQL statements only set up state the API cannot create
 * quickly (old timestamps for time-limit rules, realm settings).
 */
import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../support/client';
import type { TestServer } from '../support/server';

export async function sendToChannel(
  client: ApiClient,
  channel: string | number,
  topic: string,
  content: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await client.post('/messages', {
    type: 'channel',
    to: typeof channel === 'number' ? channel : channel,
    topic,
    content,
    ...extra,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** The narrow of one topic in one channel, in the object form. */
export function topicNarrow(channel: string, topic: string) {
  return [
    { operator: 'channel', operand: channel },
    { operator: 'topic', operand: topic },
  ];
}

export async function sendDirect(
  client: ApiClient,
  to: Array<number | string>,
  content: string,
): Promise<number> {
  const res = await client.post('/messages', { type: 'direct', to, content });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** Creates a channel through the API and returns its id. */
export async function createChannel(
  server: TestServer,
  creator: ApiClient,
  name: string,
  principals: number[],
  options: Record<string, unknown> = {},
): Promise<number> {
  const res = await creator.post('/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals,
    ...options,
  });
  expect(res.status, res.text).toBe(200);
  const row = server.server.db
    .prepare<[string], { id: number }>('SELECT id FROM channels WHERE name = ?')
    .get(name);
  return row!.id;
}

export async function fetchMessages(
  client: ApiClient,
  params: Record<string, unknown>,
): Promise<ApiResponse> {
  return client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, ...params });
}

export function ids(res: ApiResponse): number[] {
  return (res.body.messages as Array<{ id: number }>).map((m) => m.id);
}

/** Moves a message's send time into the past (time-limit rules). */
export function ageMessage(server: TestServer, id: number, seconds: number): void {
  server.server.db
    .prepare('UPDATE messages SET timestamp = timestamp - ? WHERE id = ?')
    .run(seconds, id);
}

export function setRealmSettings(server: TestServer, values: Record<string, unknown>): void {
  const db = server.server.db;
  const row = db
    .prepare<[], { settings: string }>('SELECT settings FROM realm WHERE id = 1')
    .get()!;
  const settings = { ...(JSON.parse(row.settings) as Record<string, unknown>), ...values };
  db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(settings));
}

export function realmSettingValue(server: TestServer, name: string): unknown {
  const row = server.server.db
    .prepare<[], { settings: string }>('SELECT settings FROM realm WHERE id = 1')
    .get()!;
  return (JSON.parse(row.settings) as Record<string, unknown>)[name];
}

export function systemGroup(server: TestServer, name: string): number {
  return server.server.db
    .prepare<[string], { id: number }>('SELECT id FROM user_groups WHERE name = ?')
    .get(name)!.id;
}
