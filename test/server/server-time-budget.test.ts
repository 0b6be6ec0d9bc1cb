// The per-user budget of server time (server/http/server-time-budget.ts): a request is charged the
// time its handler held the event loop and the events it queued; a user whose budget is spent gets
// RATE_LIMIT_HIT with Retry-After, while other users, and the user's own event polls, go on.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerTimeBudget } from '../../server/http/server-time-budget';
import { ApiError } from '../../server/http/errors';
import { RequestMeter } from '../../server/http/request-meter';
import { startTestServer, type TestServer } from '../support/server';

describe('ServerTimeBudget', () => {
  const options = { burstMs: 100, refillMsPerSecond: 50, msPerEventMegabyte: 10 };

  it('lets a user in while the balance is positive and refuses once it is spent', () => {
    const budget = new ServerTimeBudget(options);
    budget.check('user:1', 0);
    budget.charge('user:1', 60, 0, 0);
    budget.check('user:1', 0);
    // One request may overdraw: it is charged after it ran.
    budget.charge('user:1', 90, 0, 0);
    expect(budget.balance('user:1', 0)).toBe(-50);
    let refusal: unknown;
    try {
      budget.check('user:1', 0);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    const error = refusal as ApiError;
    expect(error.status).toBe(429);
    expect(error.body()).toMatchObject({ code: 'RATE_LIMIT_HIT', 'retry-after': 1.02 });
    expect(error.headers['Retry-After']).toBe('1.020');
    // Another user has a budget of their own.
    budget.check('user:2', 0);
  });

  it('earns the budget back over time, up to the burst', () => {
    const budget = new ServerTimeBudget(options);
    budget.charge('user:1', 150, 0, 0);
    expect(() => budget.check('user:1', 500)).toThrow(ApiError);
    budget.check('user:1', 1100);
    expect(budget.balance('user:1', 60_000)).toBe(100);
  });

  it('charges the events a request queued by their size', () => {
    const budget = new ServerTimeBudget(options);
    budget.charge('user:1', 0, 5 * 1024 * 1024, 0);
    expect(budget.balance('user:1', 0)).toBe(50);
  });
});

describe('RequestMeter', () => {
  it('charges a request the events it queued, not those others queued while it waited', async () => {
    let total = 1000;
    const meter = new RequestMeter(() => total);
    total += 300; // queued by the request itself
    await meter.offLoop(
      new Promise<void>((resolve) =>
        setImmediate(() => {
          total += 5000; // queued by another request during the wait
          resolve();
        }),
      ),
    );
    total += 200; // the request again, after its wait
    expect(meter.queuedBytes()).toBe(500);
  });
});

describe('the budget on a running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A megabyte of events costs an hour: any request that queues one event spends the budget.
    server = await startTestServer({
      seed: 'demo',
      serverTimeBudget: { burstMs: 1000, refillMsPerSecond: 1, msPerEventMegabyte: 3_600_000 },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a user who spent it, not the others, and still delivers the user their events', async () => {
    const emma = server.client('emma');
    const queue = await emma.post('/register', { event_types: ['message'] });
    expect(queue.status).toBe(200);
    const send = (content: string) =>
      emma.post('/messages', { type: 'stream', to: 'general', topic: 'budget', content });
    expect((await send('this send queues events for everyone in general')).status).toBe(200);

    const refused = await send('refused');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
    expect(refused.body['retry-after']).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // A long poll is never refused: the user still gets their own message's event.
    const events = await emma.get('/events', {
      queue_id: queue.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(events.status).toBe(200);
    const contents = (events.body.events as Array<{ type: string; message?: { content: string } }>)
      .filter((event) => event.type === 'message')
      .map((event) => event.message!.content);
    expect(contents).toEqual(['this send queues events for everyone in general']);

    // Someone else is not held back by emma's budget.
    const farid = await server.client('farid').get('/users/me');
    expect(farid.status).toBe(200);
  });

  it('refuses a spent user before reading the body, with the answer the handler gave', async () => {
    const moderator = server.client('moderator');
    const send = () =>
      moderator.post('/messages', { type: 'stream', to: 'general', topic: 'budget', content: 'x' });
    expect((await send()).status).toBe(200);
    // A body the parser would refuse (malformed JSON) is never parsed: the 429 comes first.
    const malformed = await moderator.raw('POST', '/messages', {
      headers: { 'content-type': 'application/json' },
      body: '{"type": "stream", "to": ',
    });
    expect(malformed.status).toBe(429);
    expect(malformed.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
    expect(malformed.body['retry-after']).toBeGreaterThan(0);
    expect(Number(malformed.headers['retry-after'])).toBeGreaterThan(0);
    // Nor even waited for: a request whose 1 MB body never comes is answered all the same.
    const stalled = await headersOnly(server.url, moderator.authHeader!, 1024 * 1024);
    expect(stalled.status).toBe(429);
    expect(JSON.parse(stalled.text)).toMatchObject({ code: 'RATE_LIMIT_HIT' });
    // A client gone while its refusal is held (refusal-hold.ts) leaves the server answering.
    const gone = request(`${server.url}/api/v1/users/me`, {
      headers: { authorization: moderator.authHeader! },
    });
    gone.on('error', () => {});
    gone.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    gone.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await server.client('farid').get('/users/me')).status).toBe(200);
  });

  it('answers anyone else as before: body errors first, then credentials', async () => {
    const broken = { headers: { 'content-type': 'application/json' }, body: '{"to": ' };
    const farid = await server.client('farid').raw('POST', '/messages', broken);
    expect(farid.status).toBe(400);
    expect(farid.body).toMatchObject({ code: 'INVALID_JSON' });
    const wrongKey = `Basic ${Buffer.from('farid@tributary.local:nope').toString('base64')}`;
    const stranger = await server.anonymous().raw('POST', '/messages', {
      headers: { ...broken.headers, authorization: wrongKey },
      body: broken.body,
    });
    expect(stranger.status).toBe(400);
    const refused = await server.anonymous().raw('GET', '/users/me', {
      headers: { authorization: wrongKey },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'INVALID_API_KEY' });
  });
});

/** POSTs headers announcing `length` bytes of form body and sends none of it. */
function headersOnly(
  baseUrl: string,
  authorization: string,
  length: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/v1/messages`, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(length),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}
