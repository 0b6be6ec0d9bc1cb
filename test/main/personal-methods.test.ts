// The personal-settings methods (shared/ipc/personal.ts) against the real local realm server: alert
// words and profile field values reach their endpoints and come back as events, the avatar is read
// from a chosen file and sent as multipart, and the API key is revealed only for the right password
// (a wrong one is refused without signing the account out).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../shared/api/events';
import { encodePng } from '../../server/seed/png';
import { startTestServer, type TestServer } from '../support/server';
import { eventually, startMain, type MainHarness } from './support/harness';

let realm: TestServer;
let main: MainHarness;
let accountId: string;

const events = () => main.pushesOf('events').flatMap((batch) => batch.events);
const waitForEvent = (match: (event: ServerEvent) => boolean) =>
  eventually(() => events().find(match));

beforeAll(async () => {
  realm = await startTestServer({ heartbeatMs: 500 });
  main = await startMain({ site: realm.url, user: realm.users.emma });
  accountId = main.accountId;
  await main.live();
});
afterAll(async () => {
  await main?.close();
  await realm?.close();
});

describe('personal settings methods', () => {
  const h = () => main.services.handlers;

  it('adds and removes alert words', async () => {
    const added = await h().addAlertWords({ accountId, words: ['  launch ', 'Rocket'] });
    expect(added.alert_words).toEqual(['launch', 'Rocket']);
    await waitForEvent((e) => e.type === 'alert_words' && e.alert_words.length === 2);
    const removed = await h().removeAlertWords({ accountId, words: ['rocket'] });
    expect(removed.alert_words).toEqual(['launch']);
    await expect(h().addAlertWords({ accountId, words: ['x'.repeat(101)] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'alert_words[0] is too long (limit: 100 characters)',
    });
  });

  it('sets and clears a custom profile field value', async () => {
    const fields = (await main.live()).register.custom_profile_fields ?? [];
    const pronouns = fields.find((f) => f.name === 'Pronouns')!;
    await h().updateProfileData({ accountId, data: [{ id: pronouns.id, value: 'they/them' }] });
    await waitForEvent(
      (e) =>
        e.type === 'realm_user' &&
        (e.person as { custom_profile_field?: { value: string | null } }).custom_profile_field
          ?.value === 'they/them',
    );
    await h().updateProfileData({ accountId, data: [{ id: pronouns.id, value: '' }] });
    const own = await realm
      .client('emma')
      .get('/users/me', { include_custom_profile_fields: true });
    expect(own.body.profile_data?.[pronouns.id]).toBeUndefined();
  });

  it('uploads the chosen image as the avatar and removes it again', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tributary-avatar-'));
    const path = join(folder, 'me.png');
    writeFileSync(
      path,
      encodePng(10, 10, () => [0, 128, 0, 255]),
    );
    const { token } = main.services.intake.register(path);
    const uploaded = await h().uploadAvatar({ accountId, token });
    expect(uploaded.avatarUrl).toMatch(/^\/user_avatars\/1\/.+\.png\?version=/);
    await waitForEvent(
      (e) =>
        e.type === 'realm_user' &&
        (e.person as { avatar_url?: string }).avatar_url === uploaded.avatarUrl,
    );
    // The token is used up: the same file must be chosen again.
    await expect(h().uploadAvatar({ accountId, token })).rejects.toMatchObject({
      code: 'INVALID_PAYLOAD',
      message: 'That file is no longer available',
    });
    const removed = await h().deleteAvatar({ accountId });
    expect(removed.avatarUrl).toMatch(/gravatar/);
  });

  it('reveals the API key for the right password only', async () => {
    await expect(h().revealApiKey({ accountId, password: 'wrong' })).rejects.toMatchObject({
      status: 401,
    });
    const { apiKey } = await h().revealApiKey({ accountId, password: realm.users.emma.password! });
    expect(apiKey).toBe(realm.users.emma.api_key);
    // Still signed in: a wrong password here is not a failed credential for the session.
    expect((await h().addAlertWords({ accountId, words: ['still'] })).result).toBe('success');
  });
});
