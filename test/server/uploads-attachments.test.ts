// The attachment bookkeeping the message code calls (server/uploads/attachments.ts), on the real
// server's database, plus the path_id and file-name rules of server/uploads/storage.ts.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import {
  detachedUploadsAfterEdit,
  extractUploadPathIds,
  linkAttachmentsToMessage,
  relinkAttachmentsAfterEdit,
  unlinkAttachmentsFromMessages,
} from '../../server/uploads/attachments';
import {
  isWellFormedPathId,
  newPathId,
  sanitizeFileName,
  uploadUrl,
} from '../../server/uploads/storage';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
});
afterAll(async () => {
  await server.close();
});

async function upload(who: string, name: string): Promise<{ url: string; pathId: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(randomBytes(16))]), name);
  const res = await server.client(who).multipart('/user_uploads', form);
  expect(res.status).toBe(200);
  return {
    url: res.body.url,
    pathId: decodeURIComponent(res.body.url.slice('/user_uploads/'.length)),
  };
}

/** A bare message row from dev to themself (the links, not delivery, are under test). */
function insertMessage(senderId: number, content: string): number {
  const db = server.server.db;
  db.prepare('INSERT OR IGNORE INTO recipients (user_ids) VALUES (?)').run(String(senderId));
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO messages (sender_id, type, recipient_id, content, rendered_content, timestamp)
       VALUES (?, 'private', (SELECT id FROM recipients WHERE user_ids = ?), ?, '', 0)`,
    )
    .run(senderId, String(senderId), content);
  return Number(lastInsertRowid);
}

function linksOf(messageId: number): number[] {
  return (
    server.server.db
      .prepare('SELECT attachment_id FROM attachment_messages WHERE message_id = ? ORDER BY 1')
      .all(messageId) as { attachment_id: number }[]
  ).map((r) => r.attachment_id);
}

describe('message links', () => {
  it('finds upload links in markdown, HTML and absolute URLs', () => {
    const content = [
      '[a](/user_uploads/1/ab/xyz_1/a.txt)',
      '<a href="/user_uploads/1/cd/Q-w/b%20c.pdf">b</a>',
      'http://127.0.0.1:9/user_uploads/1/ef/r/%C3%BC.png?x=1',
      '/user_uploads/download/1/0a/r2/d.bin',
      'not /user_uploads/thumbnail/x or /user_uploads/1/zz/bad/hex',
      '[again](/user_uploads/1/ab/xyz_1/a.txt)',
    ].join('\n');
    expect(extractUploadPathIds(content)).toEqual([
      '1/ab/xyz_1/a.txt',
      '1/cd/Q-w/b c.pdf',
      '1/ef/r/ü.png',
      '1/0a/r2/d.bin',
    ]);
  });

  it('links, relinks after an edit and reports the uploads the edit detached', async () => {
    const db = server.server.db;
    const dev = server.users.dev.user_id;
    const first = await upload('dev', 'first.txt');
    const second = await upload('dev', 'second.txt');
    const emmas = await upload('emma', 'emma.txt');
    const ids = (
      db.prepare('SELECT id, path_id FROM attachments').all() as {
        id: number;
        path_id: string;
      }[]
    ).reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.path_id]: r.id }), {});

    const content = `[1](${first.url}) [2](${second.url}) [e](${emmas.url})`;
    const messageId = insertMessage(dev, content);
    // Emma's private file is not dev's to share: it stays unlinked.
    expect(linkAttachmentsToMessage(db, dev, messageId, content).sort()).toEqual(
      [ids[first.pathId], ids[second.pathId]].sort(),
    );
    expect(linksOf(messageId)).toEqual([ids[first.pathId], ids[second.pathId]].sort());

    // The renderer's path_ids work as well as content.
    const other = insertMessage(dev, '');
    expect(linkAttachmentsToMessage(db, dev, other, [second.pathId])).toEqual([ids[second.pathId]]);

    // Edit away both links: `first` is referenced nowhere now, `second` still by `other`.
    const detached = detachedUploadsAfterEdit(db, dev, messageId, 'no files any more');
    expect(detached).toEqual([
      {
        id: ids[first.pathId],
        name: 'first.txt',
        path_id: first.pathId,
        size: 16,
        create_time: expect.any(Number),
        messages: [],
      },
    ]);
    expect(linksOf(messageId)).toEqual([]);

    // Editing a link back in relinks it and detaches nothing.
    const relinked = relinkAttachmentsAfterEdit(db, dev, messageId, `[1](${first.url})`);
    expect(relinked).toEqual({ linked: [ids[first.pathId]], unlinked: [], detached: [] });

    // Deleting messages needs their links gone first (foreign keys are on).
    expect(unlinkAttachmentsFromMessages(db, [messageId, other]).sort()).toEqual(
      [ids[first.pathId], ids[second.pathId]].sort(),
    );
    db.prepare('DELETE FROM messages WHERE id IN (?, ?)').run(messageId, other);
    expect(linksOf(messageId)).toEqual([]);
  });
});

describe('path ids and names', () => {
  it('builds path_ids of the documented shape that survive a URL round trip', () => {
    for (const name of ['plain.txt', 'Grüße an alle.txt', '日本.bin', 'a b#c?.png', '']) {
      const pathId = newPathId(name);
      expect(isWellFormedPathId(pathId)).toBe(true);
      expect(pathId).toMatch(/^1\/[0-9a-f]{2}\/[\w-]+\/[^/]+$/);
      const url = uploadUrl(pathId);
      expect(decodeURIComponent(url.slice('/user_uploads/'.length))).toBe(pathId);
      expect(extractUploadPathIds(`[x](${url})`)).toEqual([pathId]);
    }
  });

  it('sanitizes names to one safe path segment', () => {
    expect(sanitizeFileName('My Report (final).pdf')).toBe('My-Report-final.pdf');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\..\\win.ini')).toBe('win.ini');
    expect(sanitizeFileName('.hidden')).toBe('hidden');
    expect(sanitizeFileName('..')).toBe('uploaded-file');
    expect(sanitizeFileName('<>:"|?*')).toBe('uploaded-file');
    expect(sanitizeFileName('ｆｕｌｌ.txt')).toBe('full.txt');
    const long = sanitizeFileName(`${'x'.repeat(400)}.tar.gz`);
    expect([...long].length).toBeLessThanOrEqual(150);
    expect(long.endsWith('.gz')).toBe(true);
  });

  it('rejects path_ids that are malformed or leave the uploads folder', () => {
    for (const bad of [
      '../x',
      '1/ab/../../x',
      '1/ab/c',
      '1/zz/c/d',
      'a/ab/c/d',
      '1/ab/c/..',
      '1/ab/c/d/e',
    ]) {
      expect(isWellFormedPathId(bad)).toBe(false);
    }
  });
});
