// The API client against the real local realm server, with faults from the proxy: Basic auth, the
// server's error codes, retries of idempotent requests only, 429 honoured with Retry-After, and a 401
// reported once instead of retried.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../shared/api/endpoints';
import { adminExtrasEndpoints } from '../../shared/api/admin-extras-endpoints';
import {
  ApiClient,
  encodeParams,
  fillPath,
  normalizeSite,
  wireRequest,
} from '../../electron/api/client';
import { ApiError } from '../../electron/api/errors';
import { backoffDelay } from '../../electron/api/backoff';
import { startTestServer, type TestServer } from '../support/server';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';

let realm: TestServer;
let proxy: FaultProxy;
let client: ApiClient;
const unauthorized: ApiError[] = [];

beforeAll(async () => {
  realm = await startTestServer();
  proxy = await startFaultProxy(() => realm.url);
  const owner = realm.users.owner;
  client = new ApiClient({
    site: proxy.url,
    credentials: { email: owner.email, apiKey: owner.api_key },
    onUnauthorized: (error) => unauthorized.push(error),
  });
});
afterAll(async () => {
  await proxy?.close();
  await realm?.close();
});

const count = (line: string) => proxy.log.filter((entry) => entry === line).length;

describe('API client', () => {
  it('authenticates with HTTP Basic and returns typed responses', async () => {
    const me = await client.call(endpoints.getOwnUser, {});
    expect(me.email).toBe(realm.users.owner.email);
  });

  it("throws the server's code and msg", async () => {
    const error = (await client
      .call(endpoints.getUser, { user_id: 999_999 })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('server');
    expect(error.status).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message.length).toBeGreaterThan(0);
  });

  it('retries an idempotent request after a 502, but never a non-idempotent one', async () => {
    const bad = {
      status: 502,
      body: { result: 'error', code: 'BAD_GATEWAY', msg: 'upstream down' },
    };
    proxy.inject({ path: '/api/v1/users/me', action: bad });
    const before = count('GET /api/v1/users/me');
    const me = await client.call(endpoints.getOwnUser, {});
    expect(me.user_id).toBe(realm.users.owner.user_id);
    expect(count('GET /api/v1/users/me') - before).toBe(2);

    proxy.inject({ path: '/api/v1/drafts', method: 'POST', action: bad });
    const posts = count('POST /api/v1/drafts');
    const error = (await client
      .call(endpoints.createDrafts, { drafts: [{ type: '', to: [], topic: '', content: 'x' }] })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.ambiguous).toBe(true);
    expect(count('POST /api/v1/drafts') - posts).toBe(1);
  });

  it('waits out a 429 with Retry-After and then succeeds', async () => {
    const before = count('GET /api/v1/users/me');
    proxy.inject({
      path: '/api/v1/users/me',
      action: {
        status: 429,
        headers: { 'retry-after': '0.3' },
        body: { result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' },
      },
    });
    const me = await client.call(endpoints.getOwnUser, {});
    expect(me.user_id).toBe(realm.users.owner.user_id);
    expect(count('GET /api/v1/users/me') - before).toBe(2); // the refused call, then the retry
  });

  it('gives up with RATE_LIMIT_HIT when asked to wait longer than it will', async () => {
    const impatient = new ApiClient({
      site: proxy.url,
      credentials: { email: realm.users.owner.email, apiKey: realm.users.owner.api_key },
      maxRetryAfterMs: 1_000,
    });
    proxy.inject({
      path: '/api/v1/users/me',
      action: {
        status: 429,
        headers: { 'retry-after': '60' },
        body: { result: 'error', code: 'RATE_LIMIT_HIT', msg: 'slow down' },
      },
    });
    const error = (await impatient
      .call(endpoints.getOwnUser, {})
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('RATE_LIMIT_HIT');
    expect(error.body?.['retry-after']).toBe(60);
  });

  it('reports a 401 once and does not retry it', async () => {
    const wrong = new ApiClient({
      site: proxy.url,
      credentials: { email: realm.users.owner.email, apiKey: 'not-the-key' },
      onUnauthorized: (error) => unauthorized.push(error),
    });
    const before = count('GET /api/v1/users/me');
    const error = (await wrong.call(endpoints.getOwnUser, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
    expect(unauthorized).toHaveLength(1);
    expect(count('GET /api/v1/users/me') - before).toBe(1);
  });

  it('times out a stalled request with REQUEST_TIMEOUT', async () => {
    proxy.inject({ path: '/api/v1/server_settings', action: { delayMs: 2_000 } });
    const error = (await client
      .call(endpoints.serverSettings, {}, { timeoutMs: 200, retry: false })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('REQUEST_TIMEOUT');
  });

  it('says in words why a server could not be reached (the connection banner shows it)', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const site = `http://127.0.0.1:${port}`;
    const nowhere = new ApiClient({ site, credentials: { email: 'a@b.c', apiKey: 'k' } });
    const error = (await nowhere
      .call(endpoints.serverSettings, {}, { retry: false })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toBe(`Could not reach ${site}: nothing is answering there`);
  });

  it('normalizes sites and encodes non-string parameters as JSON', () => {
    expect(normalizeSite('https://chat.example.com/api/v1/')).toBe('https://chat.example.com');
    expect(normalizeSite(' http://127.0.0.1:9991 ')).toBe('http://127.0.0.1:9991');
    expect(() => normalizeSite('ftp://x')).toThrow(/scheme/);
    expect(encodeParams({ a: 'x', b: [1, 2], c: true, d: undefined }).toString()).toBe(
      'a=x&b=%5B1%2C2%5D&c=true',
    );
  });

  it('backs off from about 0.1 s, doubling, capped at 10 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(50);
    expect(backoffDelay(0, () => 1)).toBe(100);
    expect(backoffDelay(3, () => 1)).toBe(800);
    expect(backoffDelay(30, () => 1)).toBe(10_000);
    expect(backoffDelay(30, () => 0)).toBe(5_000);
  });
});

describe('path parameters', () => {
  it('percent-encodes {name} and passes {+name} (an already checked path) as given', () => {
    expect(fillPath('/messages/{message_id}', { message_id: 5, x: 1 })).toEqual({
      path: '/messages/5',
      rest: { x: 1 },
    });
    expect(fillPath('/users/{email}', { email: 'a/b@c.d' }).path).toBe('/users/a%2Fb%40c.d');
    expect(fillPath('/user_uploads/{+path_id}', { path_id: '1/ab/a%20b.txt' }).path).toBe(
      '/user_uploads/1/ab/a%20b.txt',
    );
    expect(() => fillPath('/user_uploads/{+path_id}', {})).toThrow(/Missing path parameter/);
  });
});

describe("the public API's names on the wire", () => {
  it('renames the spec’s neutral words and sends message-id operands as strings', () => {
    expect(
      wireRequest('/realm/playgrounds', {
        name: 'Rust',
        lexer_language: 'Rust',
        url_template: 'https://p/{code}',
      }),
    ).toEqual({
      path: '/realm/playgrounds',
      params: { name: 'Rust', pygments_language: 'Rust', url_template: 'https://p/{code}' },
    });
    expect(wireRequest('/users/me/platform_b_reg_id', { token: 't' }).path).toBe(
      '/users/me/android_gcm_reg_id',
    );
    expect(wireRequest('/calls/videoprovider/create', {}).path).toBe('/calls/zoom/create');
    // Enumerated values are renamed; free text that happens to spell one is not.
    expect(
      wireRequest('/messages/{message_id}/reactions', {
        message_id: 1,
        reaction_type: 'svc_extra_emoji',
        emoji_name: 'svc_extra_emoji',
      }).params,
    ).toEqual({ message_id: 1, reaction_type: 'zulip_extra_emoji', emoji_name: 'svc_extra_emoji' });
    expect(
      wireRequest('/messages', {
        narrow: [
          { operator: 'channel', operand: 3 },
          { operator: 'near', operand: 12 },
          { operator: 'id', operand: 12 },
          { operator: 'with', operand: 12 },
          { operator: 'dm', operand: [4, 5] },
        ],
      }).params.narrow,
    ).toEqual([
      { operator: 'channel', operand: 3 },
      { operator: 'near', operand: '12' },
      { operator: 'id', operand: '12' },
      { operator: 'with', operand: '12' },
      { operator: 'dm', operand: [4, 5] },
    ]);
  });

  it("names narrow operators as the server's feature level knows them", () => {
    const narrow = [
      { operator: 'channel', operand: 3 },
      { operator: 'topic', operand: 'plans' },
      { operator: 'dm', operand: [4, 5] },
      { operator: 'dm-including', operand: 4 },
      { operator: 'is', operand: 'dm' },
      { operator: 'channels', operand: 'public' },
    ];
    const wire = (featureLevel?: number) =>
      (wireRequest('/messages', { narrow }, featureLevel).params.narrow as typeof narrow).map(
        (t) => `${t.operator}:${String(t.operand)}`,
      );
    // Modern names from 9.0 (FL250) on, and while the level is not known.
    expect(wire(372)).toEqual(wire(undefined));
    expect(wire(250)).toEqual([
      'channel:3',
      'topic:plans',
      'dm:4,5',
      'dm-including:4',
      'is:dm',
      'channels:public',
    ]);
    // 7.x and 8.x: channel and channels under their old names.
    expect(wire(249)).toEqual([
      'stream:3',
      'topic:plans',
      'dm:4,5',
      'dm-including:4',
      'is:dm',
      'streams:public',
    ]);
    // Before 7.0 (FL177): the direct-message words too.
    expect(wire(176)).toEqual([
      'stream:3',
      'topic:plans',
      'pm-with:4,5',
      'group-pm-with:4',
      'is:private',
      'streams:public',
    ]);
  });

  it('asks an older server with its own operator names (the local server takes both)', async () => {
    const old = new ApiClient({
      site: realm.url,
      credentials: { email: realm.users.owner.email, apiKey: realm.users.owner.api_key },
      featureLevel: () => 176,
    });
    const newest = async (narrow: Array<{ operator: string; operand: string }>) =>
      (
        await old.call(endpoints.getMessages, {
          anchor: 'newest',
          num_before: 5,
          num_after: 0,
          narrow,
        })
      ).messages;
    const general = await newest([{ operator: 'channel', operand: 'general' }]);
    expect(general.length).toBeGreaterThan(0);
    expect(general.every((m) => m.type === 'stream')).toBe(true);
    const dms = await newest([{ operator: 'is', operand: 'dm' }]);
    expect(dms.every((m) => m.type === 'private')).toBe(true);
  });

  it('sends a near narrow the server takes and a playground under its public parameter', async () => {
    // The local server, like the public one, refuses a numeric near operand.
    const page = await client.call(endpoints.getMessages, {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'near', operand: 1 }],
    });
    expect(page.result).toBe('success');
    const added = await client.call(adminExtrasEndpoints.addPlayground, {
      name: 'Wire names',
      pygments_language: 'Rust',
      url_template: 'https://p.example/?c={code}',
    });
    const state = await client.call(endpoints.register, {
      fetch_event_types: ['realm_playgrounds'],
    });
    expect((state as unknown as { realm_playgrounds: unknown[] }).realm_playgrounds).toContainEqual(
      {
        id: added.id,
        name: 'Wire names',
        pygments_language: 'Rust',
        url_template: 'https://p.example/?c={code}',
      },
    );
  });
});
