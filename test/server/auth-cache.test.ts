// Verified credentials are cached per Authorization header; any change to a user row must take
// effect on the very next request: a regenerated key, a deactivation, a role change.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client';
import { startTestServer, type TestServer } from '../support/server';

describe('authentication cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 'demo' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a bot key as soon as it is regenerated', async () => {
    const bot = server.client('helperBot');
    expect((await bot.get('/users/me')).status).toBe(200); // now cached
    const regenerated = await server
      .client('dev')
      .post(`/bots/${server.userIds.helperBot}/api_key/regenerate`, {});
    expect(regenerated.status).toBe(200);
    const stale = await bot.get('/users/me');
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('INVALID_API_KEY');
    const fresh = new ApiClient(() => server.url, {
      email: server.users.helperBot.email,
      apiKey: regenerated.body.api_key as string,
    });
    expect((await fresh.get('/users/me')).status).toBe(200);
  });

  it('refuses a deactivated user and sees a changed role at once', async () => {
    // This server has no endpoint that changes another user's role or deactivates them; the
    // realm's own connection writes the row, as an admin tool would.
    const db = server.server.db;
    const farid = server.client('farid');
    expect((await farid.get('/users/me')).body.role).toBe(400); // now cached
    db.prepare('UPDATE users SET role = 300 WHERE id = ?').run(server.userIds.farid);
    expect((await farid.get('/users/me')).body.role).toBe(300);
    db.prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(server.userIds.farid);
    const refused = await farid.get('/users/me');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('USER_DEACTIVATED');
  });
});

describe('credentials checked before the body', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A rate limit makes the router look the caller up before the body (refuseEarly); the handler
    // then reuses that lookup unless a user row changed meanwhile.
    server = await startTestServer({
      seed: 'demo',
      rateLimit: { requests: 1000, windowMs: 60_000 },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a user deactivated while their request body was still arriving', async () => {
    const farid = server.client('farid');
    expect((await farid.get('/users/me')).status).toBe(200); // now cached
    const body = new URLSearchParams({
      type: 'channel',
      to: 'general',
      topic: 'late body',
      content: 'sent by someone deactivated meanwhile',
    }).toString();
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    socket.write(
      `POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${farid.authHeader}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    // Another request answered after those bytes were written: the server has read the first
    // request's headers (and authenticated it) by then.
    expect((await server.client('dev').get('/users/me')).status).toBe(200);
    server.server.db
      .prepare('UPDATE users SET is_active = 0 WHERE id = ?')
      .run(server.userIds.farid);
    socket.end(body.slice(10));
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toContain('"code":"USER_DEACTIVATED"');
  });
});
