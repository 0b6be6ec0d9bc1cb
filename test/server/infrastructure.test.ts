// The HTTP layer and server lifecycle: envelope, parameter parsing, auth errors, 404, body limits,
// restart persistence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tusRequest } from '../support/tus';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo', bodyLimitBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
});

describe('envelope and routing', () => {
  it('wraps success and lists unsupported parameters', async () => {
    const res = await server.client('dev').post('/register', {
      event_types: ['heartbeat'],
      bogus: 1,
      another: 'x',
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('success');
    expect(res.body.msg).toBe('');
    expect(res.body.ignored_parameters_unsupported).toEqual(['another', 'bogus']);
  });

  it('counts aliases and path parameters as known, the same on every request', async () => {
    const dev = server.client('dev');
    // Twice: the names a route accepts are worked out once and reused (http/params.ts).
    for (const bogus of ['first', 'second']) {
      const res = await dev.post('/register', {
        event_types: ['heartbeat'],
        client_extavatar: false,
        [bogus]: 1,
      });
      expect(res.status).toBe(200);
      expect(res.body.ignored_parameters_unsupported).toEqual([bogus]);
    }
    const me = (await dev.get('/users/me')).body.user_id as number;
    const res = await dev.get(`/users/${me}/status`, { user_id: me, extra: 1 });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(['extra']);
  });

  it('omits ignored_parameters_unsupported when every parameter is known', async () => {
    const res = await server.client('dev').post('/register', { event_types: ['heartbeat'] });
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const res = await server.client('dev').get('/no/such/endpoint');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Not Found' });
  });

  it('reports a malformed JSON parameter as INVALID_JSON with var_name', async () => {
    const res = await server.client('dev').raw('POST', '/register', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'event_types=%5Bnot-json',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_JSON', var_name: 'event_types' });
  });

  it('reports a wrongly typed parameter as REQUEST_VARIABLE_INVALID', async () => {
    const res = await server.client('dev').post('/register', { apply_markdown: 'yes please' });
    expect(res.status).toBe(400);
    // 'yes please' is not JSON at all
    expect(res.body.code).toBe('INVALID_JSON');
    const typed = await server.client('dev').post('/register', { apply_markdown: 5 });
    expect(typed.status).toBe(400);
    expect(typed.body).toMatchObject({
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'apply_markdown',
    });
  });

  it('reports a missing required parameter as REQUEST_VARIABLE_MISSING', async () => {
    const res = await server
      .anonymous()
      .post('/fetch_api_key', { username: 'dev@tributary.local' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
  });

  it('accepts multipart/form-data bodies', async () => {
    const form = new FormData();
    form.append('event_types', JSON.stringify(['heartbeat']));
    form.append('extra_field', 'x');
    const res = await server.client('dev').multipart('/register', form);
    expect(res.status).toBe(200);
    expect(res.body.queue_id).toEqual(expect.any(String));
    expect(res.body.ignored_parameters_unsupported).toEqual(['extra_field']);
  });

  it('reads a multipart body whatever the case of its Content-Type, on any route', async () => {
    // Multipart requests are routed to a copy of each route that has the multipart parser
    // (server/http/router.ts, MULTIPART_BODY); one spelled in capitals must find it too.
    const boundary = 'B0undary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="event_types"\r\n\r\n["heartbeat"]\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="extra_field"\r\n\r\nx\r\n--${boundary}--\r\n`;
    for (const type of ['MULTIPART/FORM-DATA', 'Multipart/Form-Data', 'multipart/form-data']) {
      const res = await server.client('dev').raw('POST', '/register', {
        headers: { 'content-type': `${type}; boundary=${boundary}` },
        body,
      });
      expect(res.status, type).toBe(200);
      expect(res.body.queue_id).toEqual(expect.any(String));
      expect(res.body.ignored_parameters_unsupported).toEqual(['extra_field']);
    }
  });

  it('accepts JSON-encoded parameters in the query string of GET requests', async () => {
    const q = await registerQueue(server.client('dev'), { event_types: ['heartbeat'] });
    const res = await server.client('dev').get('/events', {
      queue_id: q.queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([]);
  });

  it('rejects a malformed application/json body', async () => {
    const res = await server.client('dev').raw('POST', '/register', {
      headers: { 'content-type': 'application/json' },
      body: '{"event_types": [',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_JSON');
  });

  it('refuses a text/plain body with 415 instead of ignoring it', async () => {
    const dev = server.client('dev');
    const before = await dev.get('/drafts');
    const res = await dev.raw('POST', '/drafts', {
      headers: { 'content-type': 'text/plain' },
      body: 'drafts=[{"type":"","to":[],"topic":"","content":"lost"}]',
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await dev.get('/drafts')).body.count).toBe(before.body.count);
  });

  it('rejects an oversized body with 413 and stores nothing', async () => {
    const dev = server.client('dev');
    const before = await dev.get('/drafts');
    const res = await dev.post('/drafts', {
      drafts: [{ type: '', to: [], topic: '', content: 'x'.repeat(100 * 1024) }],
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    const after = await dev.get('/drafts');
    expect(after.body.count).toBe(before.body.count);
  });
});

describe('authentication', () => {
  it('401 UNAUTHORIZED with WWW-Authenticate when credentials are missing', async () => {
    const res = await server.anonymous().post('/register');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Basic realm="zulip"');
  });

  it('401 INVALID_API_KEY for a wrong key or an unknown email', async () => {
    const wrongKey = await server.anonymous().raw('POST', '/register', {
      headers: { authorization: basic('dev@tributary.local', 'x'.repeat(32)) },
    });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.code).toBe('INVALID_API_KEY');
    const unknown = await server.anonymous().raw('POST', '/register', {
      headers: { authorization: basic('nobody@tributary.local', server.users.dev.api_key) },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('INVALID_API_KEY');
  });

  it('challenges wrong and deactivated credentials with WWW-Authenticate too', async () => {
    const wrongKey = await server.anonymous().raw('POST', '/register', {
      headers: { authorization: basic('dev@tributary.local', 'x'.repeat(32)) },
    });
    expect(wrongKey.body.code).toBe('INVALID_API_KEY');
    expect(wrongKey.headers['www-authenticate']).toBe('Basic realm="zulip"');
    const malformed = await server.anonymous().raw('POST', '/register', {
      headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
    });
    expect(malformed.body).toMatchObject({ code: 'INVALID_API_KEY', msg: 'Malformed API key' });
    expect(malformed.headers['www-authenticate']).toBe('Basic realm="zulip"');

    // farid is used by no other test in this file.
    const farid = server.users.farid;
    expect((await server.client('admin').delete(`/users/${farid.user_id}`)).status).toBe(200);
    const res = await server.client('farid').get('/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('USER_DEACTIVATED');
    expect(res.headers['www-authenticate']).toBe('Basic realm="zulip"');
  });

  it('ignores an Authorization header on unauthenticated routes', async () => {
    const stale = basic('dev@tributary.local', 'stale-key'.padEnd(32, 'x'));
    const login = await server.anonymous().raw('POST', '/fetch_api_key', {
      headers: { authorization: stale, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: 'dev@tributary.local',
        password: server.users.dev.password ?? '',
      }).toString(),
    });
    expect(login.status, login.text).toBe(200);
    expect(login.body.api_key).toBe(server.users.dev.api_key);
    const settings = await server.anonymous().raw('GET', '/server_settings', {
      headers: { authorization: 'Bearer something-else' },
    });
    expect(settings.status).toBe(200);
  });

  it('does not let one user use another user key', async () => {
    const res = await server.anonymous().raw('POST', '/register', {
      headers: { authorization: basic('emma@tributary.local', server.users.dev.api_key) },
    });
    expect(res.status).toBe(401);
  });
});

describe('rate limit', () => {
  it('answers 429 RATE_LIMIT_HIT with Retry-After once the window is used up', async () => {
    const limited = await startTestServer({ rateLimit: { requests: 3, windowMs: 60_000 } });
    try {
      const dev = limited.client('dev');
      const call = () => dev.get('/users/me');
      for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
      const res = await call();
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('RATE_LIMIT_HIT');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body['retry-after']).toBeGreaterThan(0);
      // Refused before its body is read: a malformed one is not parsed, the 429 comes first.
      const malformed = await dev.raw('POST', '/messages', {
        headers: { 'content-type': 'application/json' },
        body: '{"to": ',
      });
      expect(malformed.status).toBe(429);
      expect(malformed.headers['x-ratelimit-remaining']).toBe('0');
      // Other users have their own window.
      expect((await limited.client('emma').get('/users/me')).status).toBe(200);
      // Refused credentials are counted against the caller's address, with the same headers.
      const refused = await limited.anonymous().raw('GET', '/users/me', {
        headers: { authorization: basic('dev@tributary.local', 'x'.repeat(32)) },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.headers).toHaveProperty('x-ratelimit-remaining');
      expect(refused.headers).toHaveProperty('x-ratelimit-reset');
    } finally {
      await limited.close();
    }
  });

  it('counts resumable (tus) requests against the same limit', async () => {
    const limited = await startTestServer({ rateLimit: { requests: 2, windowMs: 60_000 } });
    try {
      const dev = limited.client('dev');
      const create = () =>
        tusRequest(limited.url, dev.authHeader, 'POST', '/api/v1/tus', { 'upload-length': '4' });
      const first = await create();
      expect(first.status).toBe(201);
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      // The second request of the window is an ordinary API call.
      expect((await dev.get('/users/me')).status).toBe(200);
      const refused = await create();
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.text)).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Wrong credentials on tus count against the caller's address, as elsewhere.
      const wrong = await tusRequest(
        limited.url,
        basic('dev@tributary.local', 'x'.repeat(32)),
        'POST',
        '/api/v1/tus',
        { 'upload-length': '4' },
      );
      expect(wrong.status).toBe(401);
      expect(wrong.headers['x-ratelimit-limit']).toBe('2');
    } finally {
      await limited.close();
    }
  });
});

function basic(email: string, key: string): string {
  return `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
}
