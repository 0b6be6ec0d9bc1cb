// PLACEHOLDER for the offline search index that the `offui` branch builds (issue #23); the lead
// replaces this file with theirs at merge. Same interface, so the message store is coded against it:
// words of each message's topic and text, HTML stripped and case-folded, stored only as keyed HMAC
// tokens (equal words in different messages hash alike; no word is kept in the clear).
import type Database from 'better-sqlite3';
import { createHmac } from 'node:crypto';

export interface IndexedMessage {
  id: number;
  topic: string;
  contentHtml: string;
}

function words(text: string): string[] {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export class SearchIndex {
  private readonly key: Buffer;

  constructor(
    private readonly db: Database.Database,
    keyBase64: string,
  ) {
    this.key = createHmac('sha256', Buffer.from(keyBase64, 'base64')).update('search').digest();
    db.exec(`CREATE TABLE IF NOT EXISTS search_tokens (token TEXT NOT NULL, id INTEGER NOT NULL,
      PRIMARY KEY (token, id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS search_tokens_id ON search_tokens (id);`);
  }

  private token(word: string): string {
    return createHmac('sha256', this.key).update(word).digest('base64url').slice(0, 16);
  }

  add(messages: readonly IndexedMessage[]): void {
    this.remove(messages.map((m) => m.id));
    const insert = this.db.prepare('INSERT OR IGNORE INTO search_tokens (token, id) VALUES (?, ?)');
    for (const m of messages) {
      for (const word of new Set(words(`${m.topic} ${m.contentHtml}`)))
        insert.run(this.token(word), m.id);
    }
  }

  remove(ids: readonly number[]): void {
    const del = this.db.prepare('DELETE FROM search_tokens WHERE id = ?');
    for (const id of ids) del.run(id);
  }

  clear(): void {
    this.db.exec('DELETE FROM search_tokens');
  }

  search(query: string, limit = 100): number[] {
    const tokens = [...new Set(words(query))].map((w) => this.token(w));
    if (tokens.length === 0) return [];
    const sql = tokens
      .map(() => 'SELECT id FROM search_tokens WHERE token = ?')
      .join(' INTERSECT ');
    return (
      this.db.prepare(`${sql} ORDER BY id DESC LIMIT ?`).all(...tokens, limit) as { id: number }[]
    ).map((r) => r.id);
  }
}
