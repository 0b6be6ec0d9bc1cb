// Unauthenticated endpoints: GET /server_settings and POST /fetch_api_key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('GET /server_settings', () => {
  it('answers without authentication', async () => {
    const res = await server.anonymous().get('/server_settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: 'success',
      realm_name: 'Tributary demo',
      realm_url: server.url,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      push_notifications_enabled: false,
      is_incompatible: false,
      external_authentication_methods: [],
      authentication_methods: { password: true, email: true },
      zulip_merge_base: '',
    });
    expect(res.body.zulip_feature_level).toBeGreaterThanOrEqual(400);
    expect(res.body.zulip_version).toEqual(expect.any(String));
  });
});

describe('POST /fetch_api_key', () => {
  it('exchanges email and password for the API key', async () => {
    const res = await server.anonymous().post('/fetch_api_key', {
      username: 'emma@tributary.local',
      password: 'emma-password',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      api_key: server.users.emma.api_key,
      email: 'emma@tributary.local',
      user_id: server.users.emma.user_id,
    });
  });

  it('401 AUTHENTICATION_FAILED for a wrong password, an unknown user or a bot', async () => {
    for (const [username, password] of [
      ['emma@tributary.local', 'wrong'],
      ['nobody@tributary.local', 'emma-password'],
      ['helper-bot@tributary.local', ''],
    ]) {
      const res = await server.anonymous().post('/fetch_api_key', { username, password });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTHENTICATION_FAILED');
    }
  });

  it('401 USER_DEACTIVATED for a deactivated account, which also loses API access', async () => {
    server.server.db
      .prepare('UPDATE users SET is_active = 0 WHERE id = ?')
      .run(server.users.farid.user_id);
    try {
      const res = await server.anonymous().post('/fetch_api_key', {
        username: 'farid@tributary.local',
        password: 'farid-password',
      });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('USER_DEACTIVATED');
      const api = await server.client('farid').get('/users/me');
      expect(api.status).toBe(401);
      expect(api.body.code).toBe('USER_DEACTIVATED');
    } finally {
      server.server.db
        .prepare('UPDATE users SET is_active = 1 WHERE id = ?')
        .run(server.users.farid.user_id);
    }
  });
});
