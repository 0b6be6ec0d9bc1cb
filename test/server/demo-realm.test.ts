// The demo realm feels alive (issue 22, part 2): the Echo Webhook Bot's endpoint, hosted by the
// server on its own port, answers outgoing-webhook payloads of both interfaces, follows its port
// across restarts and closes with the server; the demo people have presence that ages as the
// public server's does. The echo is called here as the delivery engine calls it: an HTTP POST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { DEMO_PRESENCE, demoReports } from '../../server/demo/demo-presence';
import { PRESENCE } from '../../server/config';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ demoPresence: true });
});
afterAll(async () => {
  await server.close();
});

async function echoBotService(): Promise<{ base_url: string; interface: number; token: string }> {
  const res = await server.client('emma').get('/bots');
  const bot = res.body.bots.find(
    (b: { user_id: number }) => b.user_id === server.userIds.webhookBot,
  );
  return bot.services[0];
}

function interfaceOnePayload(token: string, content: string) {
  return {
    bot_email: server.users.webhookBot.email,
    bot_full_name: 'Echo Webhook Bot',
    data: content,
    trigger: 'mention',
    token,
    message: {
      id: 1,
      sender_full_name: 'Dev Member',
      sender_email: server.users.dev.email,
      content,
      type: 'stream',
    },
  };
}

function postJson(url: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('the demo Echo bot endpoint', () => {
  it('is where the Echo Webhook Bot points, and quotes what was said (interface 1)', async () => {
    const service = await echoBotService();
    expect(server.server.demo.echoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo-echo$/);
    expect(service.base_url).toBe(server.server.demo.echoUrl);
    expect(service.interface).toBe(1);

    const res = await postJson(
      service.base_url,
      interfaceOnePayload(
        service.token,
        '@**Echo Webhook Bot** hello there, ask @**Farid Member**',
      ),
    );
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { content: string };
    // The bot's own mention is dropped; other mentions are made silent so nobody is notified twice.
    expect(answer).toEqual({
      content: '@_**Dev Member** said:\n````quote\nhello there, ask @_**Farid Member**\n````',
    });

    const empty = await postJson(
      service.base_url,
      interfaceOnePayload(service.token, '@**Echo Webhook Bot**'),
    );
    expect(((await empty.json()) as { content: string }).content).toContain(
      '`@**Echo Webhook Bot** hello`',
    );
  });

  it('answers a Slack-compatible (interface 2) form in `text`', async () => {
    const service = await echoBotService();
    const form = new URLSearchParams({
      token: service.token,
      team_id: 'tributary',
      team_domain: 'tributary.local',
      channel_id: '1',
      channel_name: 'general',
      timestamp: '1700000000',
      user_id: String(server.userIds.dev),
      user_name: 'Dev Member',
      text: '@**Echo Webhook Bot** ship it',
      trigger_word: '@**Echo Webhook Bot**',
      service_id: String(server.userIds.webhookBot),
    });
    const res = await fetch(service.base_url, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      text: '@_**Dev Member** said:\n````quote\nship it\n````',
    });
  });

  it('refuses what is not a payload of one of its bots, never answering content', async () => {
    const { base_url: url, token } = await echoBotService();
    const wrongToken = await postJson(url, interfaceOnePayload('not-the-token', 'hi'));
    expect(wrongToken.status).toBe(403);
    const notJson = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: 'not json',
    });
    expect(notJson.status).toBe(400);
    const huge = await postJson(url, interfaceOnePayload(token, 'x'.repeat(512 * 1024)));
    expect(huge.status).toBe(413);
    expect((await fetch(url)).status).toBe(405);
    expect((await postJson(url.replace('/demo-echo', '/other'), {})).status).toBe(404);
  });

  it('answers a direct message in the same conversation', async () => {
    const farid = server.client('farid');
    const sent = await farid.post('/messages', {
      type: 'direct',
      to: JSON.stringify([server.userIds.webhookBot]),
      content: 'are you awake?',
    });
    expect(sent.status).toBe(200);
    const answers = async () => {
      const res = await farid.get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: [{ operator: 'dm', operand: [server.userIds.webhookBot] }],
        apply_markdown: false,
      });
      return res.body.messages
        .filter((m: { sender_id: number }) => m.sender_id === server.userIds.webhookBot)
        .map((m: { content: string }) => m.content);
    };
    await expect
      .poll(answers, { timeout: 10_000 })
      .toEqual(['@_**Farid Member** said:\n````quote\nare you awake?\n````']);
  });

  it('answers a mention in the same topic, through the delivery engine', async () => {
    const dev = server.client('dev');
    const sent = await dev.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'echo check',
      content: '@**Echo Webhook Bot** is anyone there?',
    });
    expect(sent.status).toBe(200);
    const answers = async () => {
      const res = await dev.get('/messages', {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [
          { operator: 'channel', operand: 'general' },
          { operator: 'topic', operand: 'echo check' },
          { operator: 'sender', operand: server.users.webhookBot.email },
        ],
        apply_markdown: false,
      });
      return res.body.messages.map((m: { content: string }) => m.content);
    };
    await expect
      .poll(answers, { timeout: 10_000 })
      .toEqual(['@_**Dev Member** said:\n````quote\nis anyone there?\n````']);
  });

  it('follows its new port after a restart and closes with the server', async () => {
    const before = server.server.demo.echoUrl!;
    await server.restart();
    const after = server.server.demo.echoUrl!;
    expect(after).not.toBe(before);
    expect((await echoBotService()).base_url).toBe(after);
    // The old listener is gone with the old server.
    await expect(fetch(before, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('also takes over the discard URL that demo realms seeded before it stored', async () => {
    const db = server.server.db;
    const row = db
      .prepare<[number], { bot_config: string }>('SELECT bot_config FROM users WHERE id = ?')
      .get(server.userIds.webhookBot)!;
    const earlier = { ...JSON.parse(row.bot_config), base_url: 'http://127.0.0.1:9/echo' };
    db.prepare('UPDATE users SET bot_config = ? WHERE id = ?').run(
      JSON.stringify(earlier),
      server.userIds.webhookBot,
    );
    await server.restart();
    expect((await echoBotService()).base_url).toBe(server.server.demo.echoUrl);
  });

  it("leaves the owner's own localhost service at the echo path alone across restarts", async () => {
    const emma = server.client('emma');
    const own = 'http://127.0.0.1:1/demo-echo';
    const patched = await emma.patch(`/bots/${server.userIds.webhookBot}`, {
      service_payload_url: JSON.stringify(own),
    });
    expect(patched.status).toBe(200);
    await server.restart();
    expect((await echoBotService()).base_url).toBe(own);
  });

  it('leaves a URL the owner chose alone across restarts', async () => {
    const emma = server.client('emma');
    const mine = 'https://bots.example.com/echo';
    const patched = await emma.patch(`/bots/${server.userIds.webhookBot}`, {
      service_payload_url: JSON.stringify(mine),
    });
    expect(patched.status).toBe(200);
    await server.restart();
    expect((await echoBotService()).base_url).toBe(mine);
    // With no bot pointing at it, the realm runs no echo listener at all.
    expect(server.server.demo.echoUrl).toBeNull();
  });
});

describe('demo presence', () => {
  it('lists demo people active, idle and offline from the start, but nobody one signs in as', async () => {
    const res = await server.client('dev').post('/users/me/presence', {
      status: 'active',
      slim_presence: true,
    });
    const { presences, server_timestamp: now } = res.body as {
      presences: Record<string, { active_timestamp: number; idle_timestamp: number }>;
      server_timestamp: number;
    };
    const of = (key: string) => presences[String(server.userIds[key])];
    const threshold = PRESENCE.offlineThresholdSeconds;
    // Active: active within the threshold.
    expect(now - of('admin').active_timestamp).toBeLessThan(threshold);
    // Idle: connected within the threshold, last active 25 minutes before the start.
    expect(now - of('moderator').idle_timestamp).toBeLessThan(threshold);
    expect(now - of('moderator').active_timestamp).toBeGreaterThan(24 * 60);
    // Offline: last seen hours ago, still listed (within the 14 days of history).
    expect(now - of('farid').idle_timestamp).toBeGreaterThan(2 * 3600);
    expect(now - of('guest').idle_timestamp).toBeGreaterThan(24 * 3600);
    expect(of('owner')).toBeUndefined();
    // Third-party clients read the legacy realm list, keyed by email.
    const legacy = await server.client('farid').get('/realm/presence');
    expect(legacy.body.presences[server.users.admin.email].aggregated.status).toBe('active');
    expect(legacy.body.presences[server.users.moderator.email].aggregated.status).toBe('idle');
    expect(Object.keys(legacy.body.presences)).toContain(server.users.guest.email);
  });

  it('never overwrites a newer real report with a made-up sighting', async () => {
    await server.client('farid').post('/users/me/presence', { status: 'active' });
    await server.restart();
    const res = await server.client('dev').get(`/users/${server.userIds.farid}/presence`, {
      slim_presence: true,
    });
    const seconds = Date.now() / 1000 - res.body.presence.active_timestamp;
    expect(seconds).toBeLessThan(PRESENCE.offlineThresholdSeconds);
  });

  it('ends every session: after it, people stop reporting and age to offline', () => {
    const start = 1_000_000;
    const at = (minutes: number) =>
      Object.fromEntries(
        demoReports(DEMO_PRESENCE, start, start + minutes * 60).map((r) => [r.key, r.active]),
      );
    expect(at(0)).toEqual({ admin: true, emma: true, moderator: false });
    expect(at(20)).toEqual({ admin: true, emma: false, moderator: false });
    expect(at(39)).toEqual({ admin: true });
    expect(at(41)).toEqual({});
    expect(at(24 * 60)).toEqual({});
  });

  it('does nothing in a realm without the demo people', async () => {
    const empty = await startTestServer({ seed: 'empty', demoPresence: true });
    try {
      expect(empty.server.demo.echoUrl).toBeNull();
      const rows = empty.server.db.prepare('SELECT COUNT(*) AS n FROM user_presence').get() as {
        n: number;
      };
      expect(rows.n).toBe(0);
    } finally {
      await empty.close();
    }
  });
});

describe('outgoing webhook bot URLs', () => {
  it('refuses a URL that is not http(s) or carries credentials, in the public server words', async () => {
    const emma = server.client('emma');
    for (const bad of ['ftp://example.com/hook', 'http://me:secret@example.com/hook', 'nope']) {
      const created = await emma.post('/bots', {
        full_name: 'Hook Bot',
        short_name: 'hook',
        bot_type: 3,
        payload_url: JSON.stringify(bad),
      });
      expect(created.status).toBe(400);
      expect(created.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'payload_url is not a URL' });
    }
    const before = (await echoBotService()).base_url;
    const patched = await emma.patch(`/bots/${server.userIds.webhookBot}`, {
      service_payload_url: JSON.stringify('javascript:alert(1)'),
      service_interface: 2,
    });
    expect(patched.status).toBe(400);
    expect(patched.body.msg).toBe('service_payload_url is not a URL');
    // Nothing of the refused request is stored.
    const after = await echoBotService();
    expect(after.base_url).toBe(before);
    expect(after.interface).toBe(1);
  });

  it('changes the endpoint and the format together', async () => {
    const emma = server.client('emma');
    const res = await emma.patch(`/bots/${server.userIds.webhookBot}`, {
      service_payload_url: JSON.stringify('https://hooks.example.com/slack'),
      service_interface: 2,
    });
    expect(res.body).toMatchObject({
      service_payload_url: 'https://hooks.example.com/slack',
      service_interface: 2,
    });
    expect(await echoBotService()).toMatchObject({
      base_url: 'https://hooks.example.com/slack',
      interface: 2,
    });
  });
});
