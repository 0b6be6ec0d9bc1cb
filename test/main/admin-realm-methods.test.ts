// The organization administration methods through main's dispatcher (zod payload check, then the
// handler) against the real local realm server: values outside the spec's ranges never reach the
// server, "unlimited" travels as the API wants it, and the server's refusals come back with its
// code. A second user's event queue sees the changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../electron/ipc/dispatch';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue, type TestQueue } from '../support/events';
import { startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let main: MainHarness;
let emmaQueue: TestQueue;
const call = (method: string, payload: Record<string, unknown>) =>
  createDispatcher(main.services.handlers)(method, { accountId: main.accountId, ...payload });

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  main = await startMain({ site: realm.url, user: realm.users.owner });
  await main.live();
  emmaQueue = await registerQueue(realm.client('emma'), {
    event_types: '["realm", "realm_user_settings_defaults", "realm_user"]',
  });
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('admin-realm methods', () => {
  it('refuses out-of-range values before sending', async () => {
    for (const [method, payload] of [
      ['updateUserSettingsDefaults', { changes: { web_font_size_px: 40 } }],
      ['updateUserSettingsDefaults', { changes: { color_scheme: 7 } }],
      ['updateUserSettingsDefaults', { changes: { enable_login_emails: false } }],
      ['updateRealm', { changes: { name: 'x'.repeat(41) } }],
      ['updateRealm', { changes: { message_content_edit_limit_seconds: 0 } }],
      ['updateRealm', { changes: {} }],
      ['updateUser', { userId: realm.userIds.emma, role: 250 }],
    ] as const) {
      const result = await call(method, payload);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    }
    const state = await realm.client('owner').post('/register', {
      fetch_event_types: '["realm_user_settings_defaults"]',
    });
    expect(state.body.realm_user_settings_defaults.web_font_size_px).toBe(16);
  });

  it('sends "unlimited" and group settings as the API wants them', async () => {
    const result = await call('updateRealm', {
      changes: {
        message_content_edit_limit_seconds: 'unlimited',
        message_retention_days: 'unlimited',
        default_code_block_language: 'rust',
      },
    });
    expect(result.ok).toBe(true);
    const event = await emmaQueue.waitFor(
      (e) =>
        e.type === 'realm' &&
        e.op === 'update_dict' &&
        'message_content_edit_limit_seconds' in e.data,
    );
    expect(event.data.message_content_edit_limit_seconds).toBeNull();
    const defaults = await call('updateUserSettingsDefaults', {
      changes: { web_home_view: 'all_messages' },
    });
    expect(defaults.ok).toBe(true);
    const defaultsEvent = await emmaQueue.waitFor((e) => e.type === 'realm_user_settings_defaults');
    expect(defaultsEvent).toMatchObject({ property: 'web_home_view', value: 'all_messages' });
  });

  it("returns the server's refusal with its code", async () => {
    const result = await call('updateUser', { userId: realm.userIds.owner, role: 200 });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_REQUEST',
        msg: 'The owner permission cannot be removed from the only organization owner.',
      },
    });
    const link = await call('createInviteLink', { inviteAs: 400, expiresInMinutes: null });
    expect(link).toMatchObject({
      ok: true,
      value: { inviteLink: expect.stringContaining('/join/') },
    });
    const listed = await call('listInvites', {});
    expect(listed).toMatchObject({ ok: true, value: [{ invitedAs: 400, expiry: null }] });
  });
});
