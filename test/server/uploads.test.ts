// POST /user_uploads (multipart, streamed to disk), authenticated downloads, temporary URLs and the
// attachment records, against the real server with a 1 MiB upload limit.
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registerQueue } from '../support/events';
import type { ApiClient, ApiResponse } from '../support/client';
import { linkAttachmentsToMessage } from '../../server/uploads/attachments';

const LIMIT_MIB = 1;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo', maxFileUploadSizeMib: LIMIT_MIB });
});
afterAll(async () => {
  await server.close();
});

function uploadForm(name: string, bytes: Buffer, type = 'application/octet-stream'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

async function upload(client: ApiClient, name: string, bytes: Buffer, type?: string) {
  const res = await client.multipart('/user_uploads', uploadForm(name, bytes, type));
  expect(res.status, res.text).toBe(200);
  return res.body as ApiResponse['body'] & { url: string; uri: string; filename: string };
}

/** GET outside /api/v1 returning raw bytes. */
async function download(client: ApiClient, path: string, headers: Record<string, string> = {}) {
  const auth = client.authHeader;
  const response = await fetch(server.url + path, {
    headers: { ...(auth ? { authorization: auth } : {}), ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function attachmentRows(): number {
  return (server.server.db.prepare('SELECT COUNT(*) AS n FROM attachments').get() as { n: number })
    .n;
}

/** Every regular file under uploads/ (stored files and staging leftovers). */
function storedFiles(): string[] {
  const root = join(server.dataDir, 'uploads');
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) =>
    statSync(join(root, p)).isFile(),
  );
}

/**
 * A raw multipart request the way hand-written clients send it: chunked transfer encoding (no
 * Content-Length) and the file name as an RFC 5987 `filename*` parameter.
 */
function rawMultipart(
  client: ApiClient,
  disposition: string,
  bytes: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = `----raw${randomBytes(8).toString('hex')}`;
  const url = new URL(`${server.url}/api/v1/user_uploads`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: client.authHeader!,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        }),
      );
    });
    req.write(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n`);
    req.write('Content-Type: application/octet-stream\r\n\r\n');
    // In pieces, so the server sees the file arrive over several chunks.
    for (let i = 0; i < bytes.length; i += 4096) req.write(bytes.subarray(i, i + 4096));
    req.end(`\r\n--${boundary}--\r\n`);
  });
}

describe('POST /user_uploads', () => {
  it('stores the file and serves the same bytes back at the returned url', async () => {
    const bytes = randomBytes(200_000);
    const body = await upload(server.client('dev'), 'report.pdf', bytes, 'application/pdf');
    expect(body.result).toBe('success');
    expect(body.url).toMatch(/^\/user_uploads\/1\/[0-9a-f]{2}\/[\w-]+\/report\.pdf$/);
    expect(body.uri).toBe(body.url);
    expect(body.filename).toBe('report.pdf');

    const res = await download(server.client('dev'), body.url);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="report\.pdf"/);

    const pathId = body.url.replace('/user_uploads/', '');
    const onDisk = readFileSync(join(server.dataDir, 'uploads', pathId));
    expect(onDisk.equals(bytes)).toBe(true);
  });

  it('accepts a browser-style form with a raw UTF-8 file name', async () => {
    const bytes = Buffer.from('grüße\n');
    const body = await upload(server.client('dev'), 'Grüße an alle.txt', bytes, 'text/plain');
    expect(body.filename).toBe('Grüße an alle.txt');
    expect(body.url).toMatch(/\/Gr%C3%BC%C3%9Fe-an-alle\.txt$/);
    const res = await download(server.client('dev'), body.url);
    expect(res.bytes.toString()).toBe('grüße\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''Gr%C3%BC%C3%9Fe%20an%20alle.txt",
    );
  });

  it('accepts a chunked body with an RFC 5987 filename* and any field name', async () => {
    const bytes = randomBytes(50_000);
    const res = await rawMultipart(
      server.client('emma'),
      `name="attachment"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.bin`,
      bytes,
    );
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe('日本.bin');
    const got = await download(server.client('emma'), res.body.url as string);
    expect(got.bytes.equals(bytes)).toBe(true);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('refuses a file over max_file_upload_size_mib and stores nothing', async () => {
    const register = await server.client('dev').post('/register', { fetch_event_types: ['realm'] });
    expect(register.body.max_file_upload_size_mib).toBe(LIMIT_MIB);

    const rowsBefore = attachmentRows();
    const filesBefore = storedFiles();
    const tooBig = Buffer.alloc(LIMIT_MIB * 1024 * 1024 + 1, 7);
    const res = await server
      .client('dev')
      .multipart('/user_uploads', uploadForm('big.bin', tooBig));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: `Uploaded file is larger than the allowed limit of ${LIMIT_MIB} MiB`,
    });
    expect(attachmentRows()).toBe(rowsBefore);
    expect(storedFiles()).toEqual(filesBefore);

    // Exactly at the limit is fine.
    const atLimit = await upload(server.client('dev'), 'edge.bin', tooBig.subarray(1));
    expect(atLimit.filename).toBe('edge.bin');
  });

  it('removes the partial file when the client disconnects mid-upload', async () => {
    const rowsBefore = attachmentRows();
    const filesBefore = storedFiles();
    const boundary = '----dropped';
    const req = httpRequest(new URL(`${server.url}/api/v1/user_uploads`), {
      method: 'POST',
      headers: {
        authorization: server.client('dev').authHeader!,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(500_000),
      },
    });
    req.on('error', () => undefined);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`,
    );
    // Wait until the server has started spooling this file, then drop the connection.
    const staging = join(server.dataDir, 'uploads', '.staging', 'multipart');
    await new Promise<void>((resolve) => req.write(randomBytes(200_000), () => resolve()));
    for (let i = 0; i < 1000 && readdirSync(staging).length === 0; i++) await pause(10);
    expect(readdirSync(staging)).toHaveLength(1);
    req.destroy();

    for (let i = 0; i < 1000 && readdirSync(staging).length > 0; i++) await pause(10);
    expect(readdirSync(staging)).toEqual([]);
    expect(storedFiles()).toEqual(filesBefore);
    expect(attachmentRows()).toBe(rowsBefore);
    // The server carries on.
    expect((await upload(server.client('dev'), 'after.txt', Buffer.from('ok'))).filename).toBe(
      'after.txt',
    );
  });

  it('removes a spool file still being written when the server closes, before close resolves', async () => {
    const own = await startTestServer();
    try {
      const boundary = '----closing';
      const req = httpRequest(new URL(`${own.url}/api/v1/user_uploads`), {
        method: 'POST',
        headers: {
          authorization: own.client('owner').authHeader!,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(500_000),
        },
      });
      req.on('error', () => undefined);
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n`,
      );
      const staging = join(own.dataDir, 'uploads', '.staging', 'multipart');
      await new Promise<void>((resolve) => req.write(randomBytes(200_000), () => resolve()));
      for (let i = 0; i < 1000 && readdirSync(staging).length === 0; i++) await pause(10);
      expect(readdirSync(staging)).toHaveLength(1);
      // The realm server alone (the test wrapper would also delete the data folder).
      await own.server.close();
      expect(readdirSync(staging)).toEqual([]);
      req.destroy();
    } finally {
      await own.close();
    }
  });

  it('refuses a request without a file', async () => {
    const form = new FormData();
    form.append('note', 'no file here');
    const res = await server.client('dev').multipart('/user_uploads', form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'You must specify a file to upload',
    });
  });

  it('refuses two files and keeps neither', async () => {
    const rowsBefore = attachmentRows();
    const filesBefore = storedFiles();
    const form = uploadForm('one.txt', Buffer.from('one'));
    form.append('second', new Blob([Buffer.from('two')]), 'two.txt');
    const res = await server.client('dev').multipart('/user_uploads', form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'You may only upload one file at a time',
    });
    expect(attachmentRows()).toBe(rowsBefore);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('requires authentication and writes nothing for an unauthenticated upload', async () => {
    const filesBefore = storedFiles();
    const res = await server
      .anonymous()
      .multipart('/user_uploads', uploadForm('x.txt', Buffer.from('x')));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('sanitizes the stored name but reports the original', async () => {
    const body = await upload(
      server.client('dev'),
      '../../etc/pass wd<script>.txt',
      Buffer.from('x'),
    );
    expect(body.filename).toBe('pass wd<script>.txt');
    expect(body.url).toMatch(/\/pass-wdscript\.txt$/);
  });
});

describe('downloads', () => {
  let privateUrl: string;
  let privatePathId: string;

  beforeAll(async () => {
    const body = await upload(server.client('dev'), 'secret.png', randomBytes(1000), 'image/png');
    privateUrl = body.url;
    privatePathId = decodeURIComponent(body.url.replace('/user_uploads/', ''));
  });

  it('needs credentials', async () => {
    const res = await download(server.anonymous(), privateUrl);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  it('hides a private file from other users (404), also through download/ and the API', async () => {
    const emma = server.client('emma');
    expect((await download(emma, privateUrl)).status).toBe(404);
    expect(
      (await download(emma, privateUrl.replace('/user_uploads/', '/user_uploads/download/')))
        .status,
    ).toBe(404);
    const api = await emma.get(privateUrl);
    expect(api.status).toBe(404);
    expect(api.body.code).toBe('BAD_REQUEST');
  });

  it('lets a user download once a message they received links the file', async () => {
    const db = server.server.db;
    const dev = server.users.dev.user_id;
    const emma = server.users.emma.user_id;
    const farid = server.client('farid');
    expect((await download(server.client('emma'), privateUrl)).status).toBe(404);

    // A direct message dev -> emma that links the upload, written the way the message module
    // stores one, then linked through the function it calls.
    const ids = [dev, emma].sort((a, b) => a - b).join(',');
    db.prepare('INSERT OR IGNORE INTO recipients (user_ids) VALUES (?)').run(ids);
    const recipient = db.prepare('SELECT id FROM recipients WHERE user_ids = ?').get(ids) as {
      id: number;
    };
    const content = `see [secret.png](${privateUrl})`;
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO messages (sender_id, type, recipient_id, content, rendered_content, timestamp)
         VALUES (?, 'private', ?, ?, ?, ?)`,
      )
      .run(dev, recipient.id, content, `<p>${content}</p>`, Math.floor(Date.now() / 1000));
    const messageId = Number(lastInsertRowid);
    for (const user of [dev, emma]) {
      db.prepare('INSERT INTO user_messages (user_id, message_id) VALUES (?, ?)').run(
        user,
        messageId,
      );
    }
    expect(linkAttachmentsToMessage(db, dev, messageId, content)).toHaveLength(1);

    const res = await download(server.client('emma'), privateUrl);
    expect(res.status).toBe(200);
    // Someone outside the conversation still cannot.
    expect((await download(farid, privateUrl)).status).toBe(404);

    const listed = await server.client('dev').get('/attachments');
    const record = listed.body.attachments.find(
      (a: { path_id: string }) => a.path_id === privatePathId,
    );
    expect(record.messages).toEqual([{ id: messageId, date_sent: expect.any(Number) }]);
  });

  it('grants access through a direct message sent with POST /messages, until it is deleted', async () => {
    const body = await upload(server.client('dev'), 'shared.txt', Buffer.from('shared'));
    const emma = server.client('emma');
    expect((await download(emma, body.url)).status).toBe(404);

    const sent = await server.client('dev').post('/messages', {
      type: 'direct',
      to: [server.users.emma.user_id],
      content: `[shared.txt](${body.url})`,
    });
    expect(sent.status, sent.text).toBe(200);
    const got = await download(emma, body.url);
    expect(got.status).toBe(200);
    expect(got.bytes.toString()).toBe('shared');
    expect((await download(server.client('farid'), body.url)).status).toBe(404);

    const deleted = await server.client('dev').delete(`/messages/${sent.body.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await download(emma, body.url)).status).toBe(404);
    // The owner keeps the file.
    expect((await download(server.client('dev'), body.url)).status).toBe(200);
  });

  it('lets readers of a channel message download; not guests or non-members of a private one', async () => {
    const db = server.server.db;
    const channelMessage = (senderId: number, channel: string, content: string) => {
      const channelId = (
        db.prepare('SELECT id FROM channels WHERE name = ?').get(channel) as { id: number }
      ).id;
      db.prepare('INSERT OR IGNORE INTO recipients (channel_id) VALUES (?)').run(channelId);
      const recipient = db
        .prepare('SELECT id FROM recipients WHERE channel_id = ?')
        .get(channelId) as { id: number };
      // Only the sender's user_messages row: readers get access through the channel's history.
      const { lastInsertRowid } = db
        .prepare(
          `INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content,
                                 rendered_content, timestamp)
           VALUES (?, 'stream', ?, ?, 'files', ?, '', 0)`,
        )
        .run(senderId, recipient.id, channelId, content);
      const messageId = Number(lastInsertRowid);
      db.prepare('INSERT INTO user_messages (user_id, message_id) VALUES (?, ?)').run(
        senderId,
        messageId,
      );
      return linkAttachmentsToMessage(db, senderId, messageId, content);
    };

    const moderator = server.users.moderator.user_id;
    const design = await upload(server.client('moderator'), 'mock.png', randomBytes(10));
    expect(channelMessage(moderator, 'design', `![mock](${design.url})`)).toHaveLength(1);
    expect((await download(server.client('farid'), design.url)).status).toBe(200);
    // design is public: members who are not subscribed may read its history too.
    expect((await download(server.client('admin'), design.url)).status).toBe(200);
    expect((await download(server.client('guest'), design.url)).status).toBe(404);

    const staffOnly = await upload(server.client('moderator'), 'plan.txt', Buffer.from('plan'));
    expect(channelMessage(moderator, 'leadership', staffOnly.url)).toHaveLength(1);
    expect((await download(server.client('owner'), staffOnly.url)).status).toBe(200);
    expect((await download(server.client('dev'), staffOnly.url)).status).toBe(404);
  });

  it('does not link a file the sender cannot see', async () => {
    const db = server.server.db;
    const body = await upload(server.client('admin'), 'admin-only.txt', Buffer.from('a'));
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO messages (sender_id, type, recipient_id, content, rendered_content, timestamp)
         VALUES (?, 'private', (SELECT MIN(id) FROM recipients), ?, '', 0)`,
      )
      .run(server.users.farid.user_id, body.url);
    expect(
      linkAttachmentsToMessage(db, server.users.farid.user_id, Number(lastInsertRowid), body.url),
    ).toEqual([]);
  });

  it('serves HTML and SVG as attachments with nosniff and a sandboxing CSP', async () => {
    const dev = server.client('dev');
    const html = await upload(
      dev,
      'page.html',
      Buffer.from('<script>alert(1)</script>'),
      'text/html',
    );
    const res = await download(dev, html.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox');
    expect(csp).not.toContain('script-src');

    const svg = await upload(dev, 'icon.svg', Buffer.from('<svg onload="alert(1)"/>'));
    const svgRes = await download(dev, svg.url);
    expect(svgRes.headers.get('content-type')).toBe('image/svg+xml');
    expect(svgRes.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('forces a download under /user_uploads/download/', async () => {
    const res = await download(
      server.client('dev'),
      privateUrl.replace('/user_uploads/', '/user_uploads/download/'),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="secret\.png"/);
  });

  it('serves a byte range', async () => {
    const bytes = randomBytes(5000);
    const body = await upload(server.client('dev'), 'clip.opus', bytes);
    const res = await download(server.client('dev'), body.url, { range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/5000');
    expect(res.bytes.equals(bytes.subarray(100, 200))).toBe(true);
  });

  it('answers 404 for unknown and malformed paths', async () => {
    const dev = server.client('dev');
    expect((await download(dev, '/user_uploads/1/ab/nothing/here.txt')).status).toBe(404);
    expect((await download(dev, '/user_uploads/1/ab/..%2F..%2Frealm.sqlite3')).status).toBe(404);
    expect((await download(dev, '/user_uploads/..%2Frealm.sqlite3')).status).toBe(404);
  });

  it('issues a temporary URL that serves without credentials', async () => {
    const dev = server.client('dev');
    const res = await dev.get(privateUrl);
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^\/user_uploads\/temporary\/[\w.-]+\/secret\.png$/);
    const anonymous = await download(server.anonymous(), res.body.url);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('content-type')).toBe('image/png');
    expect(anonymous.headers.get('x-content-type-options')).toBe('nosniff');

    const forged = res.body.url.replace(/\/temporary\/([^/]+)\//, (_: string, token: string) => {
      const last = token.at(-1) === 'A' ? 'B' : 'A';
      return `/temporary/${token.slice(0, -1)}${last}/`;
    });
    expect((await download(server.anonymous(), forged)).status).toBe(404);

    // 61 s later (the realm clock moved on) the same URL no longer serves.
    const ctx = server.server.ctx;
    const realNow = ctx.nowSeconds;
    ctx.nowSeconds = () => realNow() + 61;
    try {
      expect((await download(server.anonymous(), res.body.url)).status).toBe(404);
    } finally {
      ctx.nowSeconds = realNow;
    }
  });
});

describe('attachments', () => {
  it('lists only the caller’s uploads and deletes them with events', async () => {
    const farid = server.client('farid');
    const queue = await registerQueue(farid, { event_types: ['attachment'] });
    const body = await upload(farid, 'notes.txt', Buffer.from('notes'));
    const pathId = decodeURIComponent(body.url.replace('/user_uploads/', ''));

    const listed = await farid.get('/attachments');
    expect(listed.status).toBe(200);
    expect(listed.body.attachments).toHaveLength(1);
    const record = listed.body.attachments[0];
    expect(record).toMatchObject({ name: 'notes.txt', path_id: pathId, size: 5, messages: [] });
    expect(listed.body.upload_space_used).toBeGreaterThanOrEqual(5);

    const added = await queue.waitFor((e) => e.type === 'attachment' && e.op === 'add');
    expect(added.attachment).toMatchObject({ id: record.id, path_id: pathId });

    const other = await server.client('emma').delete(`/attachments/${record.id}`);
    expect(other.status).toBe(400);
    expect(other.body.msg).toBe('Invalid attachment');
    expect(existsSync(join(server.dataDir, 'uploads', pathId))).toBe(true);

    const res = await farid.delete(`/attachments/${record.id}`);
    expect(res.status).toBe(200);
    expect(existsSync(join(server.dataDir, 'uploads', pathId))).toBe(false);
    expect((await farid.get('/attachments')).body.attachments).toEqual([]);
    expect((await download(farid, body.url)).status).toBe(404);
    const removed = await queue.waitFor((e) => e.type === 'attachment' && e.op === 'remove');
    expect(removed.attachment).toEqual({ id: record.id });
  });
});
