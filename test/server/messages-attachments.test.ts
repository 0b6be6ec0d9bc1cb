// One attachment model for messages and uploads: sending, editing and deleting messages keep
// attachment_messages through server/uploads/attachments.ts, send the owner `attachment` update
// events, and report detached_uploads in the same shape as GET /attachments (FL 400: create_time
// in milliseconds, messages [{id, date_sent}]).
import { encodePng } from '../../server/seed/png';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import type { ApiClient } from '../support/client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

async function upload(
  client: ApiClient,
  name: string,
  bytes: Uint8Array<ArrayBuffer> = new Uint8Array(randomBytes(32)),
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: name.endsWith('.png') ? 'image/png' : '' }), name);
  const res = await client.multipart('/user_uploads', form);
  expect(res.status, res.text).toBe(200);
  return res.body.url as string;
}

async function send(client: ApiClient, to: unknown, content: string, topic?: string) {
  const res = await client.post('/messages', {
    type: topic === undefined ? 'direct' : 'stream',
    to,
    topic,
    content,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

async function attachmentNamed(client: ApiClient, name: string) {
  const res = await client.get('/attachments');
  expect(res.status).toBe(200);
  return (res.body.attachments as Array<Record<string, unknown>>).find((a) => a.name === name);
}

describe('attachments linked by messages', () => {
  it('announces links made by sending, editing and deleting in the GET /attachments shape', async () => {
    const dev = server.client('dev');
    const url = await upload(dev, 'plan.txt');
    const queue = await registerQueue(dev, { event_types: ['attachment'] });

    const id = await send(dev, 'design', `plan: [plan.txt](${url})`, 'attachments');
    const linked = await queue.waitFor((e) => e.type === 'attachment' && e.op === 'update');
    const listed = await attachmentNamed(dev, 'plan.txt');
    expect(listed).toBeDefined();
    expect(linked.attachment).toEqual(listed);
    const sentAt = (await dev.get(`/messages/${id}`)).body.message.timestamp as number;
    expect(linked.attachment.messages).toEqual([{ id, date_sent: sentAt * 1000 }]);
    // Milliseconds at our feature level (seconds only from FL 443).
    expect(linked.attachment.create_time).toBeGreaterThan(1e12);
    expect(linked.upload_space_used).toEqual(expect.any(Number));

    const edited = await dev.patch(`/messages/${id}`, { content: 'plan withdrawn' });
    expect(edited.status).toBe(200);
    const unlinked = await queue.waitFor((e) => e.type === 'attachment' && e.op === 'update');
    expect(unlinked.attachment.messages).toEqual([]);
    const afterEdit = await attachmentNamed(dev, 'plan.txt');
    expect(edited.body.detached_uploads).toEqual([afterEdit]);

    await dev.patch(`/messages/${id}`, { content: `plan is back: [plan.txt](${url})` });
    const relinked = await queue.waitFor((e) => e.type === 'attachment' && e.op === 'update');
    expect(relinked.attachment.messages.map((m: { id: number }) => m.id)).toEqual([id]);

    expect((await dev.delete(`/messages/${id}`)).status).toBe(200);
    const deleted = await queue.waitFor((e) => e.type === 'attachment' && e.op === 'update');
    expect(deleted.attachment.messages).toEqual([]);
    expect((await attachmentNamed(dev, 'plan.txt'))?.messages).toEqual([]);
  });

  it('renders an uploaded image as a link plus a preview after the paragraph (valid HTML)', async () => {
    const dev = server.client('dev');
    const png = encodePng(30, 20, () => [200, 40, 40, 255]);
    const url = await upload(dev, 'photo.png', new Uint8Array(png));
    // The public server's syntax for an upload is a plain link (it has no "![]()" image syntax).
    const id = await send(dev, 'design', `the mockup [mockup](${url}) as discussed`, 'previews');
    const message = (await dev.get(`/messages/${id}`)).body.message;
    const html = message.content as string;
    const thumbnail = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
    expect(html).toBe(
      `<p>the mockup <a href="${url}">mockup</a> as discussed</p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="mockup"><img data-original-dimensions="30x20" src="${thumbnail}" data-original-content-type="image/png"></a></div>`,
    );
    // No block element inside a paragraph.
    expect(html).not.toMatch(/<p>(?:(?!<\/p>).)*<div/s);
    const narrowed = await dev.get('/messages', {
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'has', operand: 'image' }],
    });
    expect(narrowed.body.messages.map((m: { id: number }) => m.id)).toEqual([id]);
  });

  it('links a file the sender received (not only their own) and keeps a guessed file unlinked', async () => {
    const emma = server.client('emma');
    const dev = server.client('dev');
    const farid = server.client('farid');
    const shared = await upload(emma, 'shared.txt');
    await send(emma, [server.users.dev.user_id], `for you: [shared.txt](${shared})`);
    // dev forwards it to farid: dev may download it, so the link counts and farid gains access.
    const forward = await send(dev, [server.users.farid.user_id], `fwd [shared.txt](${shared})`);
    const owned = await attachmentNamed(emma, 'shared.txt');
    expect((owned?.messages as Array<{ id: number }>).map((m) => m.id)).toContain(forward);
    const download = await farid.raw('GET', shared);
    expect(download.status).toBe(200);

    // A private file of someone else, linked by guessing its URL, grants nothing.
    const secret = await upload(emma, 'secret.txt');
    await send(farid, [server.users.dev.user_id], `guessed [secret.txt](${secret})`);
    expect((await attachmentNamed(emma, 'secret.txt'))?.messages).toEqual([]);
    expect((await dev.raw('GET', secret)).status).not.toBe(200);
  });
});

describe('uploads on other hosts', () => {
  it('never claims a foreign URL with an upload-shaped path as this realm upload', async () => {
    const dev = server.client('dev');
    const url = await upload(dev, 'foreign-shaped.png');
    await send(dev, 'design', `own: [file](${url})`, 'foreign hosts');
    const before = await attachmentNamed(dev, 'foreign-shaped.png');
    expect(before?.messages).toHaveLength(1);
    // The same path on someone else's server is their file: no link to ours, no image flag.
    const id = await send(
      dev,
      'design',
      `look: [pic](https://elsewhere.example${url})`,
      'foreign hosts',
    );
    const after = await attachmentNamed(dev, 'foreign-shaped.png');
    expect(after?.messages).toHaveLength(1);
    const fetched = await dev.get(`/messages/${id}`);
    expect(fetched.body.message.content).not.toContain('src="/user_uploads');
  });
});
