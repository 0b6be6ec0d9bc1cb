// Your own profile over HTTP: POST/DELETE /users/me/avatar (square PNGs served without credentials, a
// realm_user update with the new URL and version to everyone, refusals for non-images and when the
// realm disables avatar changes for members) and PATCH /settings full_name under
// name_changes_disabled (ignored for members without an error, as on the public server; allowed for
// administrators).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import type { ApiClient } from '../support/client';
import { encodePng } from '../../server/seed/png';
import { setRealmSettings } from './messages-support';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const wide = encodePng(40, 20, (x) => (x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255]));

function uploadAvatar(client: ApiClient, bytes: Buffer = wide, fileName = 'me.png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), fileName);
  return client.multipart('/users/me/avatar', form);
}

async function ownUser(client: ApiClient) {
  const res = await client.get('/users/me');
  expect(res.status, res.text).toBe(200);
  return res.body as { avatar_url: string; avatar_version: number; full_name: string };
}

describe('POST and DELETE /users/me/avatar', () => {
  it('stores a square picture, serves it and tells everyone', async () => {
    const emma = server.client('emma');
    const before = await ownUser(emma);
    const watcher = await registerQueue(server.client('dev'), { event_types: ['realm_user'] });

    const res = await uploadAvatar(emma);
    expect(res.status, res.text).toBe(200);
    const url = res.body.avatar_url as string;
    expect(url).toMatch(/^\/user_avatars\/1\/[0-9a-f]{40}\.png\?version=\d+$/);

    const [event] = await watcher.next();
    expect(event).toMatchObject({
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: server.userIds.emma,
        avatar_url: url,
        avatar_source: 'U',
        avatar_version: before.avatar_version + 1,
      },
    });
    expect((event.person as { avatar_url_medium: string }).avatar_url_medium).toMatch(
      /-medium\.png\?version=/,
    );
    expect((await ownUser(emma)).avatar_url).toBe(url);

    const image = await fetch(server.url + url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
    const medium = await fetch(
      server.url + (event.person as { avatar_url_medium: string }).avatar_url_medium,
    );
    expect((await sharp(Buffer.from(await medium.arrayBuffer())).metadata()).width).toBe(500);

    const removed = await emma.delete('/users/me/avatar');
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    const [reset] = await watcher.next();
    expect(reset).toMatchObject({
      person: {
        user_id: server.userIds.emma,
        avatar_source: 'G',
        avatar_version: before.avatar_version + 2,
      },
    });
    expect((await fetch(server.url + url)).status).toBe(404);
  });

  it('refuses what is not one image', async () => {
    const bad = await uploadAvatar(server.client('farid'), Buffer.from('not an image at all'));
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Could not decode image; did you upload an image file?');
    const none = await server.client('farid').multipart('/users/me/avatar', new FormData());
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('You must upload exactly one avatar.');
    // The public server judges an avatar by its file name's type, not the declared one.
    const unnamed = await uploadAvatar(server.client('farid'), wide, 'avatar');
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toMatchObject({ code: 'BAD_IMAGE', msg: 'Invalid image format' });
  });

  it('lets only administrators change avatars when the realm disables it', async () => {
    setRealmSettings(server, { avatar_changes_disabled: true });
    try {
      const member = await uploadAvatar(server.client('farid'));
      expect(member.status).toBe(400);
      expect(member.body.msg).toBe('Avatar changes are disabled in this organization.');
      expect((await uploadAvatar(server.client('admin'))).status).toBe(200);
    } finally {
      setRealmSettings(server, { avatar_changes_disabled: false });
    }
  });
});

describe('PATCH /settings full_name', () => {
  it('renames, and ignores a member rename while the realm disables name changes', async () => {
    const farid = server.client('farid');
    const renamed = await farid.patch('/settings', { full_name: 'Farid Q' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.full_name).toBe('Farid Q');
    expect((await ownUser(farid)).full_name).toBe('Farid Q');

    setRealmSettings(server, { name_changes_disabled: true });
    try {
      const state = await farid.post('/register', { fetch_event_types: ['realm'] });
      expect(state.body.realm_name_changes_disabled).toBe(true);
      const ignored = await farid.patch('/settings', { full_name: 'Someone Else' });
      expect(ignored.status, ignored.text).toBe(200);
      expect(ignored.body.full_name).toBeUndefined();
      expect((await ownUser(farid)).full_name).toBe('Farid Q');

      const admin = server.client('admin');
      const adminRename = await admin.patch('/settings', { full_name: 'Admin Two' });
      expect(adminRename.body.full_name).toBe('Admin Two');
    } finally {
      setRealmSettings(server, { name_changes_disabled: false });
    }
  });
});
