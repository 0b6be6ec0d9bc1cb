// Image uploads get the public server's thumbnails: dimensions as shown (EXIF rotation applied),
// webp thumbnails at /user_uploads/thumbnail/<path_id>/<format> with the upload's own access rules,
// register's server_thumbnail_formats, and the preview lookup the Markdown renderer uses. Real
// server over HTTP, real images made here (server/seed/png.ts, and sharp for JPEG and animation).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import type { ApiClient } from '../support/client';
import { encodePng } from '../../server/seed/png';
import { uploadImagePreview } from '../../server/uploads/thumbnails';
import { tusRequest } from '../support/tus';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

/** A wide picture: left half red, right half blue. */
const widePng = encodePng(1200, 300, (x) => (x < 600 ? [220, 30, 30, 255] : [30, 30, 220, 255]));

async function upload(client: ApiClient, name: string, bytes: Buffer, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await client.multipart('/user_uploads', form);
  expect(res.status, res.text).toBe(200);
  const url = res.body.url as string;
  return { url, pathId: decodeURIComponent(url.slice('/user_uploads/'.length)) };
}

async function get(client: ApiClient | null, path: string) {
  const auth = client?.authHeader;
  const response = await fetch(server.url + path, {
    headers: auth ? { authorization: auth } : {},
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

function thumbnailPath(pathId: string, format: string): string {
  return `/user_uploads/thumbnail/${pathId.split('/').map(encodeURIComponent).join('/')}/${format}`;
}

describe('image thumbnails', () => {
  it('announces the formats in register', async () => {
    const res = await server.client('dev').post('/register', { fetch_event_types: '["realm"]' });
    expect(res.status).toBe(200);
    expect(res.body.server_thumbnail_formats).toEqual([
      {
        name: '840x560-anim.webp',
        max_width: 840,
        max_height: 560,
        format: 'webp',
        animated: true,
      },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ]);
  });

  it('records an uploaded PNG and serves a webp thumbnail that fits 840x560', async () => {
    const { pathId } = await upload(server.client('dev'), 'wide picture.png', widePng, 'image/png');
    expect(uploadImagePreview(server.server.db, pathId)).toEqual({
      width: 1200,
      height: 300,
      contentType: 'image/png',
      thumbnailUrl: thumbnailPath(pathId, '840x560.webp'),
      animated: false,
    });
    const thumb = await get(server.client('dev'), thumbnailPath(pathId, '840x560.webp'));
    expect(thumb.status).toBe(200);
    expect(thumb.type).toBe('image/webp');
    const meta = await sharp(thumb.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 840, 210]);
    // Still the picture: red on the left, blue on the right.
    const { data, info } = await sharp(thumb.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number) => [...data.subarray(x * info.channels, x * info.channels + 3)];
    expect(pixel(10)[0]).toBeGreaterThan(180);
    expect(pixel(830)[2]).toBeGreaterThan(180);
  });

  it('thumbnails an image uploaded with tus before answering its last request', async () => {
    const dev = server.client('dev');
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const created = await tusRequest(server.url, dev.authHeader, 'POST', '/api/v1/tus', {
      'upload-length': String(widePng.length),
      'upload-metadata': `filename ${b64('big.png')},filetype ${b64('image/png')}`,
    });
    expect(created.status, created.text).toBe(201);
    const done = await tusRequest(
      server.url,
      dev.authHeader,
      'PATCH',
      String(created.headers.location),
      { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      widePng,
    );
    expect(done.status, done.text).toBe(200);
    const pathId = decodeURIComponent(
      (JSON.parse(done.text) as { url: string }).url.slice('/user_uploads/'.length),
    );
    expect(uploadImagePreview(server.server.db, pathId)).toMatchObject({
      width: 1200,
      height: 300,
    });
    const thumb = await get(dev, thumbnailPath(pathId, '840x560.webp'));
    expect([thumb.status, thumb.type]).toEqual([200, 'image/webp']);
  });

  it('asks for an animated format of a still image and gets the still one', async () => {
    const { pathId } = await upload(server.client('dev'), 'still.png', widePng, 'image/png');
    const thumb = await get(server.client('dev'), thumbnailPath(pathId, '840x560-anim.webp'));
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.bytes).metadata()).pages ?? 1).toBe(1);
  });

  it('keeps small images at their size and reads EXIF rotation into the dimensions', async () => {
    const small = encodePng(200, 100, () => [0, 160, 0, 255]);
    // Orientation 6: stored 200x100, shown 100x200.
    const rotated = await sharp(small).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const { pathId } = await upload(server.client('dev'), 'phone.jpg', rotated, 'image/jpeg');
    const preview = uploadImagePreview(server.server.db, pathId);
    expect([preview?.width, preview?.height, preview?.contentType]).toEqual([
      100,
      200,
      'image/jpeg',
    ]);
    const thumb = await get(server.client('dev'), thumbnailPath(pathId, '840x560.webp'));
    const meta = await sharp(thumb.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([100, 200]);
  });

  it('keeps an animated GIF animated in the -anim format and links that one', async () => {
    const frame = (r: number) => encodePng(60, 40, () => [r, 0, 0, 255]);
    const gif = await sharp([frame(250), frame(120), frame(10)], { join: { animated: true } })
      .gif()
      .toBuffer();
    const { pathId } = await upload(server.client('dev'), 'blink.gif', gif, 'image/gif');
    const preview = uploadImagePreview(server.server.db, pathId);
    expect(preview).toMatchObject({ width: 60, height: 40, animated: true });
    expect(preview?.thumbnailUrl).toBe(thumbnailPath(pathId, '840x560-anim.webp'));
    const animated = await get(server.client('dev'), thumbnailPath(pathId, '840x560-anim.webp'));
    expect((await sharp(animated.bytes).metadata()).pages).toBe(3);
    const still = await get(server.client('dev'), thumbnailPath(pathId, '840x560.webp'));
    expect((await sharp(still.bytes).metadata()).pages ?? 1).toBe(1);
  });

  it('gives no preview to files that are not images, nor to bytes that do not decode', async () => {
    const text = await upload(
      server.client('dev'),
      'notes.txt',
      Buffer.from('hello'),
      'text/plain',
    );
    const fake = await upload(
      server.client('dev'),
      'fake.png',
      Buffer.from('not a png'),
      'image/png',
    );
    for (const { pathId } of [text, fake]) {
      expect(uploadImagePreview(server.server.db, pathId)).toBeUndefined();
      const res = await get(server.client('dev'), thumbnailPath(pathId, '840x560.webp'));
      expect(res.status).toBe(404);
    }
  });

  it('refuses unknown format names', async () => {
    const { pathId } = await upload(server.client('dev'), 'x.png', widePng, 'image/png');
    for (const name of ['100x100.webp', '840x560.png', '..', '']) {
      const res = await get(server.client('dev'), thumbnailPath(pathId, name));
      expect(res.status, name).toBe(404);
    }
  });

  it('serves a thumbnail only to those who may see the upload', async () => {
    const dev = server.client('dev');
    const { url, pathId } = await upload(dev, 'private.png', widePng, 'image/png');
    const path = thumbnailPath(pathId, '840x560.webp');
    // Not shared with anyone yet: only its owner sees it.
    expect((await get(server.client('emma'), path)).status).toBe(404);
    expect((await get(null, path)).status).toBe(401);
    // Sent to emma in a direct message: now she may.
    const sent = await dev.post('/messages', {
      type: 'direct',
      to: JSON.stringify([server.userIds.emma]),
      content: `[private.png](${url})`,
    });
    expect(sent.status, sent.text).toBe(200);
    expect((await get(server.client('emma'), path)).status).toBe(200);
    expect((await get(server.client('farid'), path)).status).toBe(404);
  });

  it('deletes the thumbnails with the upload', async () => {
    const dev = server.client('dev');
    const { pathId } = await upload(dev, 'gone.png', widePng, 'image/png');
    const folder = join(server.dataDir, 'uploads', 'thumbnail', ...pathId.split('/'));
    expect(existsSync(join(folder, '840x560.webp'))).toBe(true);
    const list = await dev.get('/attachments');
    const attachment = (list.body.attachments as { id: number; path_id: string }[]).find(
      (a) => a.path_id === pathId,
    );
    expect((await dev.delete(`/attachments/${attachment!.id}`)).status).toBe(200);
    expect(existsSync(folder)).toBe(false);
    expect(uploadImagePreview(server.server.db, pathId)).toBeUndefined();
  });
});
