// The organization icon against the real server: the default (an identicon, source "G"), an
// administrator's upload scaled to a 100 px square PNG served without credentials, the realm
// update_dict event everyone hears, removal back to the default, and the refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import type { ApiClient } from '../support/client';
import { mediaTypeForName } from '../../shared/media-types';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

/** A wide JPEG: left half red, right half blue, so the square crop is visible in the pixels. */
async function wideJpeg(): Promise<Buffer> {
  const red = await sharp({
    create: { width: 150, height: 200, channels: 3, background: { r: 255, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: 300, height: 200, channels: 3, background: { r: 0, g: 0, b: 255 } },
  })
    .composite([{ input: red, left: 0, top: 0 }])
    .jpeg()
    .toBuffer();
}

function uploadIcon(client: ApiClient, files: Array<{ bytes: Buffer; name: string }>) {
  const form = new FormData();
  form.append('note', 'not a file');
  // Typed by name, as browsers and curl do: the server refuses a part declared as no image.
  files.forEach((file, i) =>
    form.append(
      `file-${i}`,
      new Blob([new Uint8Array(file.bytes)], { type: mediaTypeForName(file.name) }),
      file.name,
    ),
  );
  return client.multipart('/realm/icon', form);
}

const realmState = async (client: ApiClient) =>
  (await client.post('/register', { fetch_event_types: ['realm'] })).body;

describe('organization icon', () => {
  it('starts at the default identicon with the limit in register', async () => {
    const state = await realmState(server.client('emma'));
    expect(state.realm_icon_source).toBe('G');
    expect(state.realm_icon_url).toMatch(
      /^https:\/\/secure\.gravatar\.com\/avatar\/\w+\?d=identicon$/,
    );
    expect(state.max_icon_file_size_mib).toBe(5);
  });

  it('stores an upload as a 100 px square PNG and tells everyone', async () => {
    const q = await registerQueue(server.client('emma'), { event_types: ['realm'] });
    const res = await uploadIcon(server.client('admin'), [
      { bytes: await wideJpeg(), name: 'logo.jpg' },
    ]);
    expect(res.status).toBe(200);
    const iconUrl = res.body.icon_url as string;
    expect(iconUrl).toMatch(/^\/user_avatars\/1\/realm\/icon\.png\?version=\d+$/);

    const event = await q.waitFor((e) => e.type === 'realm' && e.op === 'update_dict');
    expect(event).toMatchObject({
      property: 'icon',
      data: { icon_url: iconUrl, icon_source: 'U' },
    });
    const state = await realmState(server.client('guest'));
    expect(state.realm_icon_url).toBe(iconUrl);
    expect(state.realm_icon_source).toBe('U');
    const settings = await server.client('guest').get('/server_settings');
    expect(settings.body.realm_icon).toBe(new URL(iconUrl, server.url).href);

    // Served without credentials, as <img> tags load it.
    const served = await fetch(server.url + iconUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 100, height: 100 });
    // The middle square of a half-red, half-blue image: red on the left, blue on the right.
    const { data, info } = await sharp(png)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number) => [...data.subarray(x * info.channels, x * info.channels + 3)];
    expect(pixel(5)[0]).toBeGreaterThan(200);
    expect(pixel(95)[2]).toBeGreaterThan(200);

    // A second upload moves the version, so the URL changes.
    const again = await uploadIcon(server.client('owner'), [
      { bytes: await wideJpeg(), name: 'logo.jpg' },
    ]);
    expect(again.status).toBe(200);
    expect(again.body.icon_url).not.toBe(iconUrl);
  });

  it('goes back to the default on DELETE', async () => {
    const q = await registerQueue(server.client('emma'), { event_types: ['realm'] });
    const res = await server.client('owner').delete('/realm/icon');
    expect(res.status).toBe(200);
    expect(res.body.icon_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    const event = await q.waitFor((e) => e.type === 'realm' && e.op === 'update_dict');
    expect(event).toMatchObject({
      property: 'icon',
      data: { icon_url: res.body.icon_url, icon_source: 'G' },
    });
    expect((await realmState(server.client('emma'))).realm_icon_source).toBe('G');
  });

  it('refuses members, missing or extra files, large files and non-images', async () => {
    const image = { bytes: await wideJpeg(), name: 'logo.jpg' };
    const refusals: Array<
      [Promise<{ status: number; body: Record<string, unknown> }>, string, string]
    > = [
      [
        uploadIcon(server.client('emma'), [image]),
        'BAD_REQUEST',
        'Must be an organization administrator',
      ],
      [
        uploadIcon(server.client('moderator'), [image]),
        'BAD_REQUEST',
        'Must be an organization administrator',
      ],
      [uploadIcon(server.client('admin'), []), 'BAD_REQUEST', 'You must upload exactly one icon.'],
      [
        uploadIcon(server.client('admin'), [image, image]),
        'BAD_REQUEST',
        'You must upload exactly one icon.',
      ],
      [
        uploadIcon(server.client('admin'), [
          { bytes: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff), name: 'big.jpg' },
        ]),
        'BAD_REQUEST',
        'Uploaded file is larger than the allowed limit of 5 MiB',
      ],
      [
        uploadIcon(server.client('admin'), [{ bytes: Buffer.from('just text'), name: 'a.png' }]),
        'BAD_IMAGE',
        'Invalid image format',
      ],
      [
        server.client('emma').delete('/realm/icon'),
        'BAD_REQUEST',
        'Must be an organization administrator',
      ],
    ];
    for (const [request, code, msg] of refusals) {
      const res = await request;
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code, msg });
    }
    // Nothing refused changed the icon.
    expect((await realmState(server.client('emma'))).realm_icon_source).toBe('G');
  });
});
