// What the event loop's register asks for (DEFAULT_REGISTER_PARAMS): every kind of state but
// `streams`, which repeats the channels of subscriptions, unsubscribed and never_subscribed. Against
// the real local realm server: nothing else the full register holds is missing, and those three
// lists (what renderer/store/slices/channels.ts reads) hold every channel of `streams`, each with
// the same channel fields. It asks the server to leave out the external avatar service's URLs
// (client_gravatar): only those URLs are left out, which the page never loads (another host:
// test/renderer/chat/avatar-source.test.ts), so every avatar shows as it did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../shared/api/endpoints';
import { ApiClient } from '../../electron/api/client';
import { DEFAULT_REGISTER_PARAMS } from '../../shared/api/register-params';
import { startTestServer, type TestServer } from '../support/server';
import { encodePng } from '../../server/seed/png';
import type { WireUser } from '../../shared/api/types';

describe("the event loop's register", () => {
  let realm: TestServer;
  beforeAll(async () => {
    realm = await startTestServer();
  });
  afterAll(async () => {
    await realm?.close();
  });

  const register = (who: 'dev' | 'guest', params: typeof DEFAULT_REGISTER_PARAMS) => {
    const user = realm.users[who];
    const client = new ApiClient({
      site: realm.url,
      credentials: { email: user.email, apiKey: user.api_key },
    });
    return client.call(endpoints.register, params);
  };

  it('leaves out external avatar URLs, and every avatar shows as it did', async () => {
    // One user with an uploaded avatar: the realm serves it, so it still comes as a URL.
    const png = encodePng(8, 8, () => [0, 128, 255, 255]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    expect((await realm.client('emma').multipart('/users/me/avatar', form)).status).toBe(200);
    const withUrls = await register('dev', { ...DEFAULT_REGISTER_PARAMS, client_gravatar: false });
    const trimmed = await register('dev', DEFAULT_REGISTER_PARAMS);
    const byId = (users: WireUser[]) => new Map(users.map((u) => [u.user_id, u]));
    const before = byId(withUrls.realm_users);
    const after = byId(trimmed.realm_users);
    expect([...after.keys()]).toEqual([...before.keys()]);
    const nulls = [...after.values()].filter((u) => u.avatar_url === null);
    expect(nulls.length).toBeGreaterThan(0);
    for (const [id, user] of after) {
      const url = before.get(id)!.avatar_url;
      if (user.avatar_url === null)
        expect(url, `user ${id}`).toMatch(/^https:\/\/secure\.gravatar\.com\//);
      else expect(user.avatar_url, `user ${id}`).toBe(url);
    }
    expect(after.get(realm.users.emma.user_id)?.avatar_url).toMatch(/^\/user_avatars\//);
  });

  it.each(['dev', 'guest'] as const)(
    'leaves out streams and nothing else, and the store has every channel (%s)',
    async (who) => {
      const { fetch_event_types: _all, ...everything } = DEFAULT_REGISTER_PARAMS;
      const full = await register(who, everything);
      const trimmed = await register(who, DEFAULT_REGISTER_PARAMS);
      expect(full.streams?.length).toBeGreaterThan(0);
      expect(trimmed).not.toHaveProperty('streams');
      // muted_topics too, as the public server does for a client that asks for user_topic.
      const expected = Object.keys(full).filter((k) => k !== 'streams' && k !== 'muted_topics');
      expect(Object.keys(trimmed).sort()).toEqual(expected.sort());
      const listed = new Map<number, object>();
      for (const channel of [
        ...trimmed.subscriptions,
        ...(trimmed.unsubscribed ?? []),
        ...trimmed.never_subscribed,
      ]) {
        listed.set(channel.stream_id, channel);
      }
      const streams = full.streams!;
      expect([...listed.keys()].sort((a, b) => a - b)).toEqual(
        streams.map((s) => s.stream_id).sort((a, b) => a - b),
      );
      for (const stream of streams) {
        expect(listed.get(stream.stream_id)).toMatchObject(stream);
      }
    },
  );
});
