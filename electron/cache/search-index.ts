// Full-text index over the cached messages, kept in the account's cache file without a readable word.
//
// Each message's topic and text (HTML stripped) are cut into words the way the server's keyword
// search cuts them, and every word is replaced by a keyed token: HMAC-SHA256 under a key derived from
// the cache key, cut to 64 bits and written in base 32. An FTS5 table (contentless: it keeps only its
// index, not the rows) indexes those tokens with their positions, so AND of words and quoted phrases
// are ordinary FTS5 queries over tokens. A query's words are tokenised with the same key.
//
// What the file still reveals to someone without the key: which messages share a word (equal words
// hash alike, so word frequencies can be counted and compared with a language's), how many words a
// message has and where repeated words sit in it, and the message ids. Not any word itself, nor which
// word a token stands for without guessing it and holding the key.
//
// Normalisation (roughly what the public server's keyword search does, minus what it cannot keep):
// HTML tags dropped and entities decoded; NFKC; case folded (toLowerCase); Latin/Greek/Cyrillic
// diacritics removed ("café" finds "cafe"); words are runs of letters, digits and combining marks,
// everything else (punctuation, '_', '-', "'") separates words, and a query word that contains such a
// separator ("don't", "foo.bar") is searched as the phrase of its parts. Not done: stemming (the public
// server finds "testing" for "test"; this index finds whole words only), prefix matching (the local
// realm server's), stop words, and segmentation of scripts written without spaces (a run of CJK text
// is one word).
import type Database from 'better-sqlite3';
import { createHmac } from 'node:crypto';

/** One message as the index sees it. */
export interface IndexedMessage {
  id: number;
  topic: string;
  contentHtml: string;
}

/** Changing how words are cut or tokens made needs a new table name: old tokens would never match. */
const TABLE = 'search_words_v1';
/** Tokens remembered per index, so a word that recurs is hashed once (memory only, never on disk). */
const TOKEN_MEMO_LIMIT = 200_000;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntity(entity: string, body: string): string {
  if (body.startsWith('#x') || body.startsWith('#X')) {
    const code = Number.parseInt(body.slice(2), 16);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  if (body.startsWith('#')) {
    const code = Number.parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return ENTITIES[body.toLowerCase()] ?? entity;
}

/** The text a person reads in rendered message HTML: tags are word breaks, entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]{2,8});/g, decodeEntity);
}

/** The words of `text`, normalised: NFKC, case-folded, diacritics of Latin-like scripts removed. */
export function searchWords(text: string): string[] {
  const folded = text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
  return folded.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/**
 * The query's conditions: each unquoted word, and each quoted stretch, as the list of normalised
 * words that must appear next to each other in that order (one word for a plain word).
 */
export function queryPhrases(query: string): string[][] {
  const phrases: string[][] = [];
  const add = (text: string) => {
    const words = searchWords(text);
    if (words.length > 0) phrases.push(words);
  };
  // Quoted stretches first (an unterminated quote runs to the end); the rest word by word.
  const parts = query.split('"');
  parts.forEach((part, i) => {
    if (i % 2 === 1) add(part);
    else for (const word of part.split(/\s+/)) add(word);
  });
  return phrases;
}

export class SearchIndex {
  private readonly key: Buffer;
  private readonly memo = new Map<string, string>();
  private readonly insert: Database.Statement<[number, string, string]>;
  private readonly delete: Database.Statement<[number]>;
  private readonly find: Database.Statement<[string], number>;
  private readonly findNewest: Database.Statement<[string, number], number>;

  /** Creates the index's table in `db` (the account's cache file) unless it is there already. */
  constructor(
    private readonly db: Database.Database,
    keyBase64: string,
  ) {
    const cacheKey = Buffer.from(keyBase64, 'base64');
    if (cacheKey.length !== 32) throw new Error('A cache key is 32 bytes');
    // Its own key, so the tokens are not a function of the key that seals the cache's rows.
    this.key = createHmac('sha256', cacheKey).update('tributary search index v1').digest();
    // Contentless (content=''): the table keeps the index only; contentless_delete lets a message be
    // removed or replaced by id. Tokens are lowercase base 32, so the ascii tokenizer keeps them whole.
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLE} USING fts5(topic, content, ` +
        `content='', contentless_delete=1, tokenize='ascii')`,
    );
    this.insert = db.prepare(`INSERT INTO ${TABLE}(rowid, topic, content) VALUES (?, ?, ?)`);
    this.delete = db.prepare(`DELETE FROM ${TABLE} WHERE rowid = ?`);
    const find = `SELECT rowid FROM ${TABLE} WHERE ${TABLE} MATCH ? ORDER BY rowid DESC`;
    this.find = db.prepare<[string], number>(find).pluck();
    this.findNewest = db.prepare<[string, number], number>(`${find} LIMIT ?`).pluck();
  }

  /** Indexes the messages; a message indexed before is replaced (an edit or a move). */
  add(messages: readonly IndexedMessage[]): void {
    this.db.transaction(() => {
      for (const message of messages) {
        this.delete.run(message.id);
        this.insert.run(
          message.id,
          this.tokens(searchWords(message.topic)),
          this.tokens(searchWords(htmlText(message.contentHtml))),
        );
      }
    })();
  }

  remove(ids: readonly number[]): void {
    this.db.transaction(() => {
      for (const id of ids) this.delete.run(id);
    })();
  }

  clear(): void {
    this.db.exec(`INSERT INTO ${TABLE}(${TABLE}) VALUES ('delete-all')`);
  }

  /**
   * Ids of the messages, newest first, whose topic or text holds every word of `query` (a quoted
   * stretch as a phrase, within the topic or within the text). A query with no words finds nothing.
   */
  search(query: string, limit?: number): number[] {
    const phrases = queryPhrases(query);
    if (phrases.length === 0) return [];
    // Tokens are [a-z2-7] only, so quoting them needs no escaping and no user text reaches FTS5.
    const match = phrases.map((words) => `"${this.tokens(words)}"`).join(' AND ');
    return limit === undefined
      ? this.find.all(match)
      : this.findNewest.all(match, Math.max(0, Math.floor(limit)));
  }

  private tokens(words: readonly string[]): string {
    return words.map((word) => this.token(word)).join(' ');
  }

  private token(word: string): string {
    let token = this.memo.get(word);
    if (token === undefined) {
      token = base32(createHmac('sha256', this.key).update(word).digest().subarray(0, 8));
      if (this.memo.size >= TOKEN_MEMO_LIMIT) this.memo.clear();
      this.memo.set(word, token);
    }
    return token;
  }
}

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff; // at most 12 bits are pending
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}
