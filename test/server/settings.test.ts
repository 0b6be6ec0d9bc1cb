// PATCH /settings and PATCH /realm/user_settings_defaults (spec 4.8).
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

const settingsOf = async (who: string) =>
  (await server.client(who).post('/register', { fetch_event_types: ['user_settings'] })).body
    .user_settings;

describe('PATCH /settings', () => {
  it('changes settings, sending one user_settings event per changed setting', async () => {
    const q = await registerQueue(server.client('dev'), { event_types: ['user_settings'] });
    const res = await server.client('dev').patch('/settings', {
      color_scheme: 2,
      web_home_view: 'recent',
      enter_sends: true,
      emojiset: 'google', // unchanged: no event
    });
    expect(res.status).toBe(200);
    const events = await q.next();
    expect(events.map((e) => [e.property, e.value])).toEqual([
      ['enter_sends', true],
      ['color_scheme', 2],
      ['web_home_view', 'recent'],
    ]);
    expect(await settingsOf('dev')).toMatchObject({
      color_scheme: 2,
      web_home_view: 'recent',
      enter_sends: true,
    });
    expect(await settingsOf('emma')).toMatchObject({ color_scheme: 1, web_home_view: 'inbox' });
  });

  it("accepts the public server's `recent_topics` beside the spec's `recent`, kept as sent", async () => {
    const res = await server.client('dev').patch('/settings', { web_home_view: 'recent_topics' });
    expect(res.status).toBe(200);
    expect(await settingsOf('dev')).toMatchObject({ web_home_view: 'recent_topics' });
    const admin = await server
      .client('admin')
      .patch('/realm/user_settings_defaults', { web_home_view: 'recent_topics' });
    expect(admin.status).toBe(200);
    const defaults = (
      await server
        .client('dev')
        .post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })
    ).body.realm_user_settings_defaults;
    expect(defaults.web_home_view).toBe('recent_topics');
    await server.client('admin').patch('/realm/user_settings_defaults', { web_home_view: 'inbox' });
  });

  it('rejects out-of-range values with nothing changed', async () => {
    const before = await settingsOf('emma');
    const cases: Array<Record<string, unknown>> = [
      { color_scheme: 9 },
      { web_home_view: 'nowhere' },
      { enter_sends: 'sometimes' },
      { web_font_size_px: 1000 },
      { color_scheme: 2, emojiset: 'comic-sans' },
      { timezone: 'Mars/Olympus_Mons' },
      { full_name: '   ' },
    ];
    for (const params of cases) {
      const res = await server.client('emma').patch('/settings', params);
      expect(res.status, JSON.stringify(params)).toBe(400);
    }
    expect(await settingsOf('emma')).toEqual(before);
  });

  it('announces full_name and timezone changes as realm_user updates', async () => {
    const q = await registerQueue(server.client('guest'), { event_types: ['realm_user'] });
    const res = await server
      .client('farid')
      .patch('/settings', { full_name: 'Farid F.', timezone: 'Asia/Tokyo' });
    expect(res.status).toBe(200);
    const events = await q.next();
    expect(events.map((e) => e.person)).toEqual([
      { user_id: server.users.farid.user_id, full_name: 'Farid F.' },
      {
        user_id: server.users.farid.user_id,
        timezone: 'Asia/Tokyo',
        email: 'farid@tributary.local',
      },
    ]);
    const user = await server.client('dev').get(`/users/${server.users.farid.user_id}`);
    expect(user.body.user).toMatchObject({ full_name: 'Farid F.', timezone: 'Asia/Tokyo' });
  });

  it('changes the password only with the old one', async () => {
    const wrong = await server.client('moderator').patch('/settings', {
      old_password: 'nope',
      new_password: 'brand-new-password',
    });
    expect(wrong.status).toBe(400);
    const ok = await server.client('moderator').patch('/settings', {
      old_password: 'moderator-password',
      new_password: 'brand-new-password',
    });
    expect(ok.status).toBe(200);
    const login = await server.anonymous().post('/fetch_api_key', {
      username: 'moderator@tributary.local',
      password: 'brand-new-password',
    });
    expect(login.status).toBe(200);
  });

  it('deletes stored drafts when draft synchronization is turned off', async () => {
    const emma = server.client('emma');
    const created = await emma.post('/drafts', {
      drafts: [{ type: '', to: [], topic: '', content: 'to go' }],
    });
    const q = await registerQueue(emma, { event_types: ['drafts', 'user_settings'] });
    await emma.patch('/settings', { enable_drafts_synchronization: false });
    const removal = await q.waitFor((e) => e.type === 'drafts');
    expect(removal).toMatchObject({ op: 'remove', draft_id: created.body.ids[0] });
    expect(
      server.server.db
        .prepare('SELECT COUNT(*) AS n FROM drafts WHERE user_id = ?')
        .get(server.users.emma.user_id),
    ).toEqual({ n: 0 });
  });
});

describe('PATCH /realm/user_settings_defaults', () => {
  it('lets administrators change defaults for new users only, with events', async () => {
    const q = await registerQueue(server.client('dev'), {
      event_types: ['realm_user_settings_defaults'],
    });
    const res = await server.client('admin').patch('/realm/user_settings_defaults', {
      web_font_size_px: 18,
      twenty_four_hour_time: true,
    });
    expect(res.status).toBe(200);
    const events = await q.next();
    expect(events.map((e) => [e.op, e.property, e.value])).toEqual([
      ['update', 'twenty_four_hour_time', true],
      ['update', 'web_font_size_px', 18],
    ]);
    // Existing users keep their settings; a new user starts from the new defaults.
    expect(await settingsOf('dev')).toMatchObject({
      web_font_size_px: 16,
      twenty_four_hour_time: false,
    });
    const created = await server.client('admin').post('/users', {
      email: 'defaults@tributary.local',
      password: 'defaults-password',
      full_name: 'Fresh Defaults',
    });
    const row = server.server.db
      .prepare('SELECT settings FROM user_settings WHERE user_id = ?')
      .get(created.body.user_id) as { settings: string };
    expect(JSON.parse(row.settings)).toMatchObject({
      web_font_size_px: 18,
      twenty_four_hour_time: true,
    });
  });

  it('refuses non-administrators and bad values', async () => {
    const member = await server
      .client('dev')
      .patch('/realm/user_settings_defaults', { web_font_size_px: 20 });
    expect(member.status).toBe(400);
    expect(member.body.code).toBe('BAD_REQUEST');
    const moderator = await server
      .client('moderator')
      .patch('/realm/user_settings_defaults', { web_font_size_px: 20 });
    expect(moderator.status).toBe(400);
    const bad = await server
      .client('admin')
      .patch('/realm/user_settings_defaults', { web_home_view: 'space' });
    expect(bad.body.code).toBe('REQUEST_VARIABLE_INVALID');
    const unknown = await server
      .client('admin')
      .patch('/realm/user_settings_defaults', { dense_mode: true });
    expect(unknown.body.ignored_parameters_unsupported).toEqual(['dense_mode']);
    const defaults = (
      await server
        .client('dev')
        .post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })
    ).body.realm_user_settings_defaults;
    expect(defaults.web_font_size_px).toBe(18);
  });
});

// The settings the desktop client's Notifications screen saves.
describe('notification settings', () => {
  it('takes desktop_icon_count_display 1 to 4 (FL 227 numbering) and refuses others', async () => {
    for (const value of [4, 3, 2, 1]) {
      const res = await server
        .client('emma')
        .patch('/settings', { desktop_icon_count_display: value });
      expect(res.status).toBe(200);
      expect((await settingsOf('emma')).desktop_icon_count_display).toBe(value);
    }
    for (const value of [0, 5]) {
      const res = await server
        .client('emma')
        .patch('/settings', { desktop_icon_count_display: value });
      expect(res.status).toBe(400);
    }
  });

  it('saves every trigger, the sound (none included) and DM content in one round trip', async () => {
    const changes = {
      enable_desktop_notifications: false,
      enable_sounds: false,
      enable_stream_desktop_notifications: true,
      enable_stream_audible_notifications: true,
      enable_followed_topic_desktop_notifications: false,
      enable_followed_topic_audible_notifications: false,
      enable_followed_topic_wildcard_mentions_notify: false,
      wildcard_mentions_notify: false,
      pm_content_in_desktop_notifications: false,
      notification_sound: 'none',
    };
    expect((await server.client('dev').patch('/settings', changes)).status).toBe(200);
    expect(await settingsOf('dev')).toMatchObject(changes);
  });
});
