// Navigation views (4.19), the deprecated push token endpoints (4.16, 4.24) and video calls (4.27).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('navigation views', () => {
  it('adds, updates and removes views per user, with events', async () => {
    const dev = server.client('dev');
    const q = await registerQueue(dev, { event_types: ['navigation_view'] });
    expect(
      (await dev.post('/navigation_views', { fragment: 'inbox', is_pinned: true })).status,
    ).toBe(200);
    expect(
      (
        await dev.post('/navigation_views', {
          fragment: 'narrow/channel/1-general',
          is_pinned: false,
          name: 'General',
        })
      ).status,
    ).toBe(200);
    const added = await q.next();
    expect(added.map((e) => [e.op, e.navigation_view.fragment, e.navigation_view.name])).toEqual([
      ['add', 'inbox', null],
      ['add', 'narrow/channel/1-general', 'General'],
    ]);
    const fragment = encodeURIComponent('narrow/channel/1-general');
    expect((await dev.patch(`/navigation_views/${fragment}`, { is_pinned: true })).status).toBe(
      200,
    );
    expect((await q.next())[0]).toMatchObject({
      op: 'update',
      fragment: 'narrow/channel/1-general',
      data: { is_pinned: true },
    });
    const state = await dev.post('/register', { fetch_event_types: ['navigation_views'] });
    expect(state.body.navigation_views).toEqual([
      { fragment: 'inbox', is_pinned: true, name: null },
      { fragment: 'narrow/channel/1-general', is_pinned: true, name: 'General' },
    ]);
    expect((await server.client('emma').get('/navigation_views')).body.navigation_views).toEqual(
      [],
    );
    expect((await dev.delete('/navigation_views/inbox')).status).toBe(200);
    expect((await q.next())[0]).toMatchObject({ op: 'remove', fragment: 'inbox' });
  });

  it('rejects a blank fragment, duplicates and unknown views', async () => {
    const dev = server.client('dev');
    const blank = await dev.post('/navigation_views', { fragment: '  ', is_pinned: true });
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('BAD_REQUEST');
    await dev.post('/navigation_views', { fragment: 'recent', is_pinned: true });
    expect(
      (await dev.post('/navigation_views', { fragment: 'recent', is_pinned: false })).status,
    ).toBe(400);
    expect((await dev.post('/navigation_views', { fragment: 'x' })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'is_pinned',
    });
    const unknown = await dev.delete('/navigation_views/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('BAD_REQUEST');
  });
});

describe('push tokens', () => {
  it('registers and removes tokens with the documented errors', async () => {
    const dev = server.client('dev');
    expect(
      (
        await dev.post('/users/me/platform_a_device_token', {
          token: 'abcdef0123',
          appid: 'org.example.app',
        })
      ).status,
    ).toBe(200);
    expect(
      (await dev.post('/users/me/platform_a_device_token', { token: '', appid: 'org.example.app' }))
        .body.msg,
    ).toBe('Empty or invalid length token');
    expect(
      (
        await dev.post('/users/me/platform_a_device_token', {
          token: 'not-hex!',
          appid: 'org.example.app',
        })
      ).status,
    ).toBe(400);
    expect(
      (await dev.post('/users/me/platform_a_device_token', { token: 'abcd' })).body.var_name,
    ).toBe('appid');
    expect(
      (await dev.delete('/users/me/platform_a_device_token', { token: 'ABCDEF0123' })).status,
    ).toBe(200);

    expect((await dev.post('/users/me/platform_b_reg_id', { token: 'reg-id-1' })).status).toBe(200);
    expect(
      (await dev.post('/users/me/platform_b_reg_id', { token: 'x'.repeat(5000) })).status,
    ).toBe(400);
    expect((await dev.delete('/users/me/platform_b_reg_id', { token: 'reg-id-1' })).status).toBe(
      200,
    );
    const again = await dev.delete('/users/me/platform_b_reg_id', { token: 'reg-id-1' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('Token does not exist');
  });

  it("answers under the public API's own paths too, on the same tokens", async () => {
    const dev = server.client('dev');
    const apns = { token: 'beef0123', appid: 'org.example.app' };
    expect((await dev.post('/users/me/apns_device_token', apns)).status).toBe(200);
    // Registered under the public path, removed under the spec's neutral one: one token.
    expect(
      (await dev.delete('/users/me/platform_a_device_token', { token: 'beef0123' })).status,
    ).toBe(200);
    expect((await dev.post('/users/me/android_gcm_reg_id', { token: 'reg-id-2' })).status).toBe(
      200,
    );
    expect((await dev.delete('/users/me/android_gcm_reg_id', { token: 'reg-id-2' })).status).toBe(
      200,
    );
    const gone = await dev.delete('/users/me/platform_b_reg_id', { token: 'reg-id-2' });
    expect(gone.body.msg).toBe('Token does not exist');
  });
});

describe('video calls', () => {
  it('refuses to create a call (no provider) and reports no provider token', async () => {
    for (const path of ['/calls/videoprovider/create', '/calls/zoom/create']) {
      const res = await server.client('dev').post(path);
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe('BAD_REQUEST');
    }
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['video_calls'] });
    // The public name of the spec's has_videoprovider_token.
    expect(state.body.has_zoom_token).toBe(false);
    expect(state.body).not.toHaveProperty('has_videoprovider_token');
  });
});
