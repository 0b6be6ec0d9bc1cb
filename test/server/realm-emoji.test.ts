// Custom (realm) emoji against the real server: the seeded ones, upload through multipart with the
// permission and name rules, the realm_emoji event (full dict), deactivation, serving the image
// without credentials, and realm_emoji reactions validated by id and name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import type { ApiClient } from '../support/client';
import { encodePng } from '../../server/seed/png';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

type EmojiDict = Record<
  string,
  { id: string; name: string; source_url: string; deactivated: boolean; author_id: number | null }
>;

const png = encodePng(8, 8, (x) => (x < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255]));

function upload(
  client: ApiClient,
  name: string,
  bytes: Buffer = png,
  fileName = 'e.png',
  type = 'image/png',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), fileName);
  return client.multipart(`/realm/emoji/${encodeURIComponent(name)}`, form);
}

async function emojiDict(): Promise<EmojiDict> {
  const res = await server.client('dev').get('/realm/emoji');
  expect(res.status).toBe(200);
  return res.body.emoji as EmojiDict;
}

const byName = (dict: EmojiDict, name: string) =>
  Object.values(dict).find((e) => e.name === name && !e.deactivated);

async function latestGeneralMessage(): Promise<number> {
  const res = await server.client('dev').get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow: [{ operator: 'channel', operand: 'general' }],
  });
  return res.body.messages.at(-1).id as number;
}

describe('custom emoji', () => {
  it('seeds the demo realm with custom emoji served as images without credentials', async () => {
    const state = await server
      .client('dev')
      .post('/register', { fetch_event_types: ['realm_emoji'] });
    const dict = state.body.realm_emoji as EmojiDict;
    expect(dict).toEqual(await emojiDict());
    const tributary = byName(dict, 'tributary');
    expect(tributary).toMatchObject({
      name: 'tributary',
      deactivated: false,
      author_id: server.users.owner.user_id,
    });
    expect(dict[tributary!.id].id).toBe(tributary!.id);
    expect(byName(dict, 'ship_it')).toBeDefined();

    const image = await fetch(server.url + tributary!.source_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect((await fetch(`${server.url}/user_avatars/1/emoji/images/nothing.png`)).status).toBe(404);

    // The demo also carries a realm_emoji reaction.
    const message = await server.client('dev').get(`/messages/${await latestGeneralMessage()}`);
    expect(message.body.message.reactions).toContainEqual(
      expect.objectContaining({
        emoji_name: 'tributary',
        emoji_code: tributary!.id,
        reaction_type: 'realm_emoji',
      }),
    );
  });

  it('adds an emoji from a multipart image and announces the full dict', async () => {
    const q = await registerQueue(server.client('emma'), { event_types: ['realm_emoji'] });
    const res = await upload(server.client('dev'), 'party parrot');
    expect(res.status, res.text).toBe(200);
    const event = await q.waitFor((e) => e.type === 'realm_emoji');
    expect(event.op).toBe('update');
    const dict = event.realm_emoji as EmojiDict;
    expect(dict).toEqual(await emojiDict());
    // Spaces become underscores, as on the public server.
    const added = byName(dict, 'party_parrot');
    expect(added).toMatchObject({ author_id: server.users.dev.user_id, deactivated: false });
    expect(byName(dict, 'tributary')).toBeDefined();
    const image = await fetch(server.url + added!.source_url);
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
  });

  it('refuses bad uploads and stores nothing', async () => {
    const dev = server.client('dev');
    const before = await emojiDict();
    const cases: Array<
      [Promise<{ status: number; body: Record<string, unknown> }>, string, string?]
    > = [
      [upload(server.client('guest'), 'guest_emoji'), 'Insufficient permission'],
      [
        upload(dev, 'Shouty'),
        'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
      ],
      [upload(dev, 'trailing_'), 'Emoji names must end with either a letter or digit.'],
      [upload(dev, 'x'.repeat(61)), 'Emoji name is too long'],
      [upload(dev, 'tributary'), 'A custom emoji with this name already exists.'],
      [upload(dev, 'smile'), 'Only administrators can override default emoji.'],
      [
        upload(dev, 'not_an_image', Buffer.from('<svg onload="alert(1)"/>'), 'e.svg'),
        'Invalid image format',
        'BAD_IMAGE',
      ],
      // A real PNG declared as bytes of no type: the public server goes by the declared type.
      [
        upload(dev, 'untyped', png, 'e.png', 'application/octet-stream'),
        'Invalid image format',
        'BAD_IMAGE',
      ],
      [dev.post('/realm/emoji/no_file'), 'You must upload exactly one file.'],
      // Read only up to the limit (the route's own multipart limit), then refused.
      [
        upload(dev, 'huge', Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)])),
        'Uploaded file is larger than the allowed limit of 5 MiB',
      ],
    ];
    for (const [pending, msg, code] of cases) {
      const res = await pending;
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: code ?? 'BAD_REQUEST', msg });
    }
    expect(await emojiDict()).toEqual(before);
  });

  it('renders :name: of an active custom emoji as its image in messages', async () => {
    const tributary = byName(await emojiDict(), 'tributary')!;
    const sent = await server.client('dev').post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'custom emoji',
      content: 'look :tributary: and :smile: and :not_an_emoji:',
    });
    expect(sent.status, sent.text).toBe(200);
    const html = (await server.client('dev').get(`/messages/${sent.body.id}`)).body.message
      .content as string;
    expect(html).toContain(
      `<img alt=":tributary:" class="emoji" src="${tributary.source_url}" title="tributary">`,
    );
    // The public server's table names 1f642 "smile" (markdown_test_cases.json).
    expect(html).toContain('class="emoji emoji-1f642"');
    expect(html).toContain(':not_an_emoji:');
  });

  it('accepts realm_emoji reactions only for an active emoji id with its name', async () => {
    const messageId = await latestGeneralMessage();
    const ship = byName(await emojiDict(), 'ship_it')!;
    const farid = server.client('farid');
    const q = await registerQueue(server.client('moderator'), { event_types: ['reaction'] });
    const react = (params: Record<string, string>) =>
      farid.post(`/messages/${messageId}/reactions`, params);

    const wrongName = await react({
      emoji_name: 'tributary',
      emoji_code: ship.id,
      reaction_type: 'realm_emoji',
    });
    expect(wrongName.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Invalid custom emoji name.',
    });
    const unknown = await react({
      emoji_name: 'ship_it',
      emoji_code: '99999',
      reaction_type: 'realm_emoji',
    });
    expect(unknown.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid custom emoji.' });

    const ok = await react({
      emoji_name: 'ship_it',
      emoji_code: ship.id,
      reaction_type: 'realm_emoji',
    });
    expect(ok.status, ok.text).toBe(200);
    expect(await q.waitFor((e) => e.type === 'reaction')).toMatchObject({
      op: 'add',
      message_id: messageId,
      emoji_name: 'ship_it',
      emoji_code: ship.id,
      reaction_type: 'realm_emoji',
      user_id: server.users.farid.user_id,
    });
    const again = await react({ emoji_name: 'ship_it' });
    expect(again.body.code).toBe('REACTION_ALREADY_EXISTS');

    // A name alone resolves to the custom emoji, for removal too.
    const removed = await farid.delete(`/messages/${messageId}/reactions`, {
      emoji_name: 'ship_it',
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await q.waitFor((e) => e.type === 'reaction')).toMatchObject({
      op: 'remove',
      emoji_code: ship.id,
      reaction_type: 'realm_emoji',
    });

    // Statuses take custom emoji the same way.
    const status = await farid.post('/users/me/status', {
      emoji_name: 'ship_it',
      emoji_code: ship.id,
      reaction_type: 'realm_emoji',
    });
    expect(status.status, status.text).toBe(200);
  });

  it('deactivates on DELETE (author or administrator), keeping the image and old reactions', async () => {
    const messageId = await latestGeneralMessage();
    const dev = server.client('dev');
    expect((await upload(dev, 'short_lived')).status).toBe(200);
    const emoji = byName(await emojiDict(), 'short_lived')!;
    expect(
      (
        await dev.post(`/messages/${messageId}/reactions`, {
          emoji_name: 'short_lived',
          emoji_code: emoji.id,
          reaction_type: 'realm_emoji',
        })
      ).status,
    ).toBe(200);

    const q = await registerQueue(server.client('guest'), { event_types: ['realm_emoji'] });
    const notAuthor = await server.client('farid').delete('/realm/emoji/short_lived');
    expect(notAuthor.status).toBe(400);
    expect(notAuthor.body.code).toBe('BAD_REQUEST');
    expect((await dev.delete('/realm/emoji/short_lived')).status).toBe(200);
    const event = await q.waitFor((e) => e.type === 'realm_emoji');
    expect((event.realm_emoji as EmojiDict)[emoji.id]).toMatchObject({
      name: 'short_lived',
      deactivated: true,
    });
    const missing = await dev.delete('/realm/emoji/short_lived');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: "Emoji 'short_lived' does not exist",
    });

    const refused = await server.client('emma').post(`/messages/${messageId}/reactions`, {
      emoji_name: 'short_lived',
      emoji_code: emoji.id,
      reaction_type: 'realm_emoji',
    });
    expect(refused.body.msg).toBe('This custom emoji has been deactivated.');
    expect((await fetch(server.url + emoji.source_url)).status).toBe(200);
    const message = await dev.get(`/messages/${messageId}`);
    expect(message.body.message.reactions).toContainEqual(
      expect.objectContaining({ emoji_code: emoji.id, reaction_type: 'realm_emoji' }),
    );

    // The name is free again; an administrator may remove anyone's emoji.
    expect((await upload(server.client('emma'), 'short_lived')).status).toBe(200);
    expect((await server.client('admin').delete('/realm/emoji/short_lived')).status).toBe(200);

    await server.restart();
    const after = await emojiDict();
    expect(after[emoji.id]).toMatchObject({ name: 'short_lived', deactivated: true });
    expect(byName(after, 'party_parrot')).toBeDefined();
    expect((await fetch(server.url + emoji.source_url)).status).toBe(200);
  });
});
