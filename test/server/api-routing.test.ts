// How a request finds its API route: the router's table behind one Fastify catch-all per scope
// (server/http/router.ts, ApiRouteTable). Each case answers as it did when every route was a
// Fastify route of its own: HEAD, a method a path lacks, find-my-way's matching, multipart bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../server/http/router';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

const NOT_FOUND = { result: 'error', code: 'BAD_REQUEST', msg: 'Not Found' };

function multipartBody(boundary: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="event_types"\r\n\r\n["heartbeat"]\r\n` +
    `--${boundary}--\r\n`
  );
}

describe('the API table', () => {
  it('mounts the API as catch-alls, not a Fastify route per endpoint', () => {
    const { app } = server.server;
    const catchAll = { method: 'GET', url: `${API_PREFIX}/*` } as const;
    expect(app.hasRoute({ ...catchAll, constraints: { apiRoute: 'yes' } })).toBe(true);
    expect(app.hasRoute({ method: 'GET', url: `${API_PREFIX}/users/me` })).toBe(false);
    // Routes whose multipart options Fastify gives them keep their own.
    expect(app.hasRoute({ method: 'POST', url: `${API_PREFIX}/users/me/avatar` })).toBe(true);
  });

  it('answers HEAD as its GET, headers and no body', async () => {
    const dev = server.client('dev');
    const get = await dev.get('/users/me');
    const head = await dev.raw('HEAD', '/users/me');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });

  it('answers HEAD to an unknown path with the 404 envelope its GET gets, without the body', async () => {
    const dev = server.client('dev');
    const get = await dev.get('/no/such/endpoint');
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject(NOT_FOUND);
    const head = await dev.raw('HEAD', '/no/such/endpoint');
    expect(head.status).toBe(404);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });

  it('answers a method a path has no route for with the 404 envelope', async () => {
    const dev = server.client('dev');
    for (const method of ['PUT', 'PATCH', 'POST']) {
      const res = await dev.raw(method, '/server_settings');
      expect(res.status, method).toBe(404);
      expect(res.body, method).toMatchObject(NOT_FOUND);
    }
    // OPTIONS has no route under /api/v1 at all.
    expect((await dev.raw('OPTIONS', '/server_settings')).status).toBe(404);
  });

  it('matches as find-my-way does: static before a parameter, no trailing slash, decoded', async () => {
    const dev = server.client('dev');
    const me = await dev.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(server.users.dev.email);
    // The same user through the parameter, by an email percent-encoded in the path.
    const byEmail = await dev.get(`/users/${encodeURIComponent(server.users.emma.email)}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.user_id).toBe(server.userIds.emma);
    const slash = await dev.get('/users/me/');
    expect(slash.status).toBe(404);
    expect(slash.body).toMatchObject(NOT_FOUND);
    // A parameter longer than find-my-way's maxParamLength (100): Fastify's 414, in the envelope;
    // a long segment of a path no route has is only not found.
    const long = await dev.get(`/users/${'9'.repeat(101)}/status`);
    expect(long.status).toBe(414);
    expect(long.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Malformed request URL' });
    expect((await dev.get(`/no_such/${'9'.repeat(101)}`)).status).toBe(404);
    // Paths are case-sensitive.
    expect((await dev.get('/USERS/me')).status).toBe(404);
  });

  it('refuses bad credentials on a table route before its body, and not on an unknown path', async () => {
    const stranger = server.anonymous();
    const refused = await stranger.post('/register', { event_types: ['heartbeat'] });
    expect(refused.status).toBe(401);
    const unknown = await stranger.post('/no/such/endpoint', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(NOT_FOUND);
  });

  it('reads a multipart body on a table route', async () => {
    const dev = server.client('dev');
    const boundary = 'B0undary';
    const rendered = await dev.raw('POST', '/messages/render', {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body:
        `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\n**hi**\r\n` +
        `--${boundary}--\r\n`,
    });
    expect(rendered.status).toBe(200);
    expect(rendered.body.rendered).toBe('<p><strong>hi</strong></p>');
  });

  it("answers a body no route takes as Fastify's not-found route did", async () => {
    // Its parsers skip a Content-Type they do not know (multipart there) and read the rest.
    const boundary = 'B0undary';
    const dev = server.client('dev');
    const bodies: [string, string, string, number][] = [
      ['POST', '/no/such/endpoint', `multipart/form-data; boundary=${boundary}`, 404],
      ['PATCH', '/register', `multipart/form-data; boundary=${boundary}`, 404],
      ['POST', '/no/such/endpoint', 'text/x-multipart', 404],
      ['POST', '/no/such/endpoint', 'application/x-www-form-urlencoded', 404],
      ['POST', '/no/such/endpoint', 'application/json', 400],
    ];
    for (const [method, path, type, status] of bodies) {
      const res = await dev.raw(method, path, {
        headers: { 'content-type': type },
        body: type === 'application/json' ? '{bad' : multipartBody(boundary),
      });
      expect(res.status, `${method} ${path} ${type}`).toBe(status);
      if (status === 404) expect(res.body).toMatchObject(NOT_FOUND);
      else expect(res.body.code).toBe('INVALID_JSON');
    }
  });
});
