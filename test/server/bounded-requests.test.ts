// No request can make the server do unbounded work or answer outside the API's error envelope:
// list parameters have caps (refused with 400 BAD_REQUEST before any work), malformed bodies and
// URLs get the JSON envelope with a 4xx status, and every place that sets a name applies one rule.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/config';
import { checkDisplayName } from '../../server/realm/text-rules';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

/** The API's error envelope: JSON with result "error", a code and a message. */
function expectEnvelope(res: { status: number; body: Record<string, unknown> | null }) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toMatchObject({ result: 'error' });
  expect(typeof res.body?.msg).toBe('string');
  expect(typeof res.body?.code).toBe('string');
}

/** A request written byte for byte, for what fetch would refuse or normalize. */
function rawHttp(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path, method: 'GET', headers, insecureHTTPParser: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: Record<string, unknown> | null;
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = null;
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('list caps', () => {
  it('refuses a subscribe request naming more channels than the cap, creating none', async () => {
    const owner = server.client('owner');
    const names = Array.from({ length: 20_000 }, (_, i) => ({ name: `flood ${i}` }));
    const res = await owner.post('/users/me/subscriptions', { subscriptions: names });
    expectEnvelope(res);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST' });
    expect(res.body.msg).toContain(String(LIMITS.maxChannelsPerSubscriptionRequest));
    const streams = await owner.get('/streams');
    const created = (streams.body.streams as { name: string }[]).filter((s) =>
      s.name.startsWith('flood '),
    );
    expect(created).toEqual([]);
  });

  it('refuses more new channels than the cap in one request, creating none', async () => {
    const owner = server.client('owner');
    const names = Array.from({ length: LIMITS.maxNewChannelsPerRequest + 1 }, (_, i) => ({
      name: `too new ${i}`,
    }));
    const res = await owner.post('/users/me/subscriptions', { subscriptions: names });
    expectEnvelope(res);
    expect(res.body.msg).toBe(
      `Too many new channels in one request (maximum ${LIMITS.maxNewChannelsPerRequest}).`,
    );
    const streams = (await owner.get('/streams')).body.streams as { name: string }[];
    expect(streams.filter((s) => s.name.startsWith('too new '))).toEqual([]);
  });

  it('accepts the most new channels allowed and announces them in one create event', async () => {
    const owner = server.client('owner');
    const queue = await server.client('emma').post('/register', { event_types: ['stream'] });
    const names = Array.from({ length: LIMITS.maxNewChannelsPerRequest }, (_, i) => ({
      name: `bulk ${i}`,
    }));
    const res = await owner.post('/users/me/subscriptions', { subscriptions: names });
    expect(res.status).toBe(200);
    const events = await server.client('emma').get('/events', {
      queue_id: queue.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    const creates = (
      events.body.events as { type: string; op?: string; streams?: unknown[] }[]
    ).filter((e) => e.type === 'stream' && e.op === 'create');
    expect(creates).toHaveLength(1);
    expect(creates[0]!.streams).toHaveLength(LIMITS.maxNewChannelsPerRequest);
  });

  it('refuses more channel × user pairs than the cap, subscribing nobody', async () => {
    // Checked before any user is looked up, so ids need not exist.
    const principals = Array.from({ length: 100 }, (_, i) => i + 1);
    const channels = Math.floor(LIMITS.maxSubscriptionChangesPerRequest / principals.length) + 1;
    const res = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: Array.from({ length: channels }, (_, i) => ({ name: `pairs ${i}` })),
      principals,
    });
    expectEnvelope(res);
    expect(res.body.msg).toBe(
      `Too many subscription changes in one request (maximum ${LIMITS.maxSubscriptionChangesPerRequest}).`,
    );
    const streams = (await server.client('owner').get('/streams')).body.streams as {
      name: string;
    }[];
    expect(streams.filter((s) => s.name.startsWith('pairs '))).toEqual([]);
  });

  it('refuses more principals than the cap', async () => {
    const principals = Array.from({ length: LIMITS.maxPrincipalsPerRequest + 1 }, (_, i) => i + 1);
    const res = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'general' }],
      principals,
    });
    expectEnvelope(res);
    expect(res.body.msg).toContain(String(LIMITS.maxPrincipalsPerRequest));
  });

  it('refuses a narrow with more terms than the cap instead of failing in SQLite', async () => {
    const narrow = Array.from({ length: 1000 }, (_, i) => ({
      operator: 'search',
      operand: `word${i}`,
    }));
    const flags = await server.client('emma').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow,
      op: 'add',
      flag: 'read',
    });
    expectEnvelope(flags);
    expect(flags.body.msg).toContain(String(LIMITS.maxNarrowTerms));
    const short = Array.from({ length: LIMITS.maxNarrowTerms + 1 }, () => ['is', 'unread']);
    const res = await server.client('emma').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: short,
    });
    expectEnvelope(res);
    expect(res.body.msg).toContain(String(LIMITS.maxNarrowTerms));
  });

  it('refuses a flag change naming more messages than the cap', async () => {
    const messages = Array.from({ length: LIMITS.maxMessageIdsPerRequest + 1 }, (_, i) => i + 1);
    const res = await server.client('emma').post('/messages/flags', {
      messages,
      op: 'add',
      flag: 'read',
    });
    expectEnvelope(res);
    expect(res.body.msg).toContain(String(LIMITS.maxMessageIdsPerRequest));
  });
});

describe('errors keep the envelope', () => {
  const boundary = 'XyZ';
  const malformed: Array<[string, string, string]> = [
    [
      'no closing boundary',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue`,
    ],
    [
      'no boundary parameter',
      'multipart/form-data',
      `--${boundary}\r\n\r\nx\r\n--${boundary}--\r\n`,
    ],
    [
      'header without a blank line',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\nvalue\r\n--${boundary}--\r\n`,
    ],
    [
      'a part without a name',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--${boundary}--\r\n`,
    ],
    [
      'garbage',
      `multipart/form-data; boundary=${boundary}`,
      '\u0000\u0001\u0002 not multipart at all',
    ],
    ['empty body', `multipart/form-data; boundary=${boundary}`, ''],
    [
      'truncated file part',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhalf a fi`,
    ],
  ];
  for (const [what, type, body] of malformed) {
    for (const path of ['/user_uploads', '/messages']) {
      it(`answers a malformed multipart body (${what}) on ${path} with 400`, async () => {
        const res = await server.client('emma').raw('POST', path, {
          headers: { 'content-type': type },
          body,
        });
        expectEnvelope(res);
      });
    }
  }

  it('answers a bad percent-encoding in the path with the envelope', async () => {
    const res = await rawHttp('/api/v1/navigation_views/%E0%A4%A', {
      authorization: server.client('emma').authHeader!,
    });
    expectEnvelope(res);
    expect(res.status).toBe(400);
  });

  it('answers a URL longer than the header limit with the envelope', async () => {
    const res = await rawHttp(`/api/v1/users?x=${'a'.repeat(20_000)}`, {
      authorization: server.client('emma').authHeader!,
    });
    expectEnvelope(res);
  });
});

describe('one rule per name', () => {
  const badNames: Array<[string, string]> = [
    ['a NUL byte', 'nul\u0000name'],
    ['a control character', 'bell\u0007name'],
    ['a right-to-left override', 'lareneg\u202e'],
    ['only zero-width characters', '\u200b\u200c\u200d'],
  ];

  it('refuses a lone surrogate in a JSON-encoded name (form text cannot carry one)', async () => {
    const res = await server.client('owner').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'half\ud800name' }],
    });
    expectEnvelope(res);
    for (const rule of [
      { label: 'Channel name', maxLength: 60 },
      { label: 'User group name', maxLength: 100 },
    ]) {
      expect(() => checkDisplayName('half\ud800name', rule)).toThrow(/Invalid character/);
    }
  });

  for (const [what, name] of badNames) {
    it(`refuses ${what} when creating or renaming a channel, a group or a view`, async () => {
      const owner = server.client('owner');
      const create = await owner.post('/users/me/subscriptions', { subscriptions: [{ name }] });
      expectEnvelope(create);

      const streams = await owner.get('/streams');
      const general = (streams.body.streams as { stream_id: number; name: string }[]).find(
        (s) => s.name === 'general',
      )!;
      const rename = await owner.patch(`/streams/${general.stream_id}`, { new_name: name });
      expectEnvelope(rename);
      const after = await owner.get(`/streams/${general.stream_id}`);
      expect(after.body.stream.name).toBe('general');

      const group = await owner.post('/user_groups/create', {
        name,
        description: '',
        members: [server.userIds.owner],
      });
      expectEnvelope(group);

      const view = await owner.post('/navigation_views', {
        fragment: `narrow/${name}`,
        is_pinned: true,
      });
      if (what !== 'a right-to-left override' && what !== 'only zero-width characters') {
        expectEnvelope(view);
      }
      const named = await owner.post('/navigation_views', {
        fragment: `narrow/channel/${what.length}`,
        is_pinned: true,
        name,
      });
      expectEnvelope(named);
    });
  }

  it('refuses a group rename that the create rule refuses', async () => {
    const owner = server.client('owner');
    const made = await owner.post('/user_groups/create', {
      name: 'renamable',
      description: '',
      members: [server.userIds.owner],
    });
    expect(made.status).toBe(200);
    const id = made.body.group_id as number;
    const res = await owner.patch(`/user_groups/${id}`, { name: 'bad\u0000name' });
    expectEnvelope(res);
  });

  it('refuses a 3 MB navigation-view fragment and stores nothing', async () => {
    const owner = server.client('owner');
    const res = await owner.post('/navigation_views', {
      fragment: `narrow/${'x'.repeat(3 * 1024 * 1024 - 100)}`,
      is_pinned: false,
    });
    expectEnvelope(res);
    const views = await owner.get('/navigation_views');
    const long = (views.body.navigation_views as { fragment: string }[]).filter(
      (v) => v.fragment.length > 10_000,
    );
    expect(long).toEqual([]);
  });
});

describe('password hashing runs off the event loop', () => {
  // A hash is tens of milliseconds of CPU. Done synchronously it held every other client: a
  // bystander's request sent while a sign-in was being checked waited for the hash to finish.
  it('answers a bystander while a sign-in and a user creation are being hashed', async () => {
    const order: string[] = [];
    const signIn = server
      .anonymous()
      .post('/fetch_api_key', {
        username: 'dev@tributary.local',
        password: server.users.dev.password ?? '',
      })
      .then((res) => {
        expect(res.status).toBe(200);
        order.push('sign-in');
      });
    const creation = server
      .client('owner')
      .post('/users', {
        email: 'hashed-off-loop@tributary.local',
        password: 'a long enough password',
        full_name: 'Hashed Off Loop',
      })
      .then((res) => {
        expect(res.status).toBe(200);
        order.push('creation');
      });
    // Sent after both: with the hashes on the event loop it could only be answered after them.
    await new Promise((resolve) => setImmediate(resolve));
    const bystander = server
      .client('emma')
      .get('/users/me')
      .then((res) => {
        expect(res.status).toBe(200);
        order.push('bystander');
      });
    await Promise.all([signIn, creation, bystander]);
    expect(order[0]).toBe('bystander');
  });

  it('refuses a second user with an address taken while the first was hashed', async () => {
    const attempt = () =>
      server.client('owner').post('/users', {
        email: 'twice@tributary.local',
        password: 'a long enough password',
        full_name: 'Twice',
      });
    const results = await Promise.all([attempt(), attempt()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const refused = results.find((r) => r.status === 400)!;
    expect(refused.body.msg).toBe("Email 'twice@tributary.local' already in use");
  });
});
