// The offline search index on a real SQLite file (as the account's cache file is opened: WAL):
// words found by AND and by phrase, replaced on edit, removed, cleared, kept across a reopen, and
// no word of any message or query readable in the file's bytes.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import {
  SearchIndex,
  htmlText,
  queryPhrases,
  searchWords,
} from '../../electron/cache/search-index';

let dir: string;
let path: string;
let db: Database.Database;
const key = CacheCipher.newKey();

function open(withKey = key): SearchIndex {
  db = new Database(path);
  db.pragma('journal_mode = WAL');
  return new SearchIndex(db, withKey);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-index-'));
  path = join(dir, 'cache.sqlite');
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const messages = [
  {
    id: 10,
    topic: 'Release plans',
    contentHtml: '<p>The <strong>Zanzibar</strong> build ships Friday</p>',
  },
  {
    id: 11,
    topic: 'lunch',
    contentHtml: '<p>Friday lunch at the Café Quixotic &amp; then ships</p>',
  },
  {
    id: 12,
    topic: 'Zanzibar',
    contentHtml: '<p>Don&#39;t ship on Friday, said <code>release_manager</code></p>',
  },
  {
    id: 13,
    topic: 'misc',
    contentHtml: '<p><a href="https://example.com/hidden-href">a link</a></p>',
  },
];

describe('SearchIndex', () => {
  it('finds messages holding every word, newest first, in topic or text', () => {
    const index = open();
    index.add(messages);
    expect(index.search('friday')).toEqual([12, 11, 10]);
    expect(index.search('FRIDAY zanzibar')).toEqual([12, 10]); // 12 by its topic
    expect(index.search('friday lunch ships')).toEqual([11]);
    expect(index.search('friday nowhere')).toEqual([]);
    expect(index.search('friday', 2)).toEqual([12, 11]);
    expect(index.search('')).toEqual([]);
    expect(index.search('  ?! ')).toEqual([]);
  });

  it('normalises as the keyword search does: HTML stripped, entities decoded, accents folded', () => {
    const index = open();
    index.add(messages);
    expect(index.search('cafe')).toEqual([11]);
    expect(index.search('café quixotic')).toEqual([11]);
    expect(index.search('zanzibar')).toEqual([12, 10]); // <strong> did not join it to its neighbours
    expect(index.search('strong')).toEqual([]); // tag names are not text
    expect(index.search('hidden')).toEqual([]); // nor attributes
    expect(index.search('link')).toEqual([13]);
    expect(index.search("don't")).toEqual([12]); // the entity decoded, then searched as "don t"
    expect(index.search('release_manager')).toEqual([12]);
    expect(index.search('manager')).toEqual([12]);
  });

  it('matches quoted stretches as phrases, within the topic or within the text', () => {
    const index = open();
    index.add(messages);
    expect(index.search('"build ships friday"')).toEqual([10]);
    expect(index.search('"ships build"')).toEqual([]);
    expect(index.search('"release plans" zanzibar')).toEqual([10]);
    // The topic's last word and the text's first are not a phrase.
    expect(index.search('"plans the"')).toEqual([]);
    expect(index.search('"friday lunch')).toEqual([11]); // unterminated: runs to the end
  });

  it("never lets the query's text act as FTS5 syntax", () => {
    const index = open();
    index.add([
      ...messages,
      { id: 30, topic: 'ops', contentHtml: '<p>lunch or friday, near the *dock*</p>' },
    ]);
    // OR, NEAR, *, ^, column filters and stray quotes are words or separators, never operators.
    expect(index.search('lunch OR friday')).toEqual([30]);
    expect(index.search('NEAR( lunch friday )')).toEqual([30]);
    expect(index.search('NEAR(lunch')).toEqual([]); // one word with punctuation: the phrase "near lunch"
    expect(index.search('topic: lunch')).toEqual([]);
    expect(index.search('^dock* "')).toEqual([30]);
    expect(index.search('-lunch')).toEqual([30, 11]);
  });

  it('replaces a message added again, removes and clears', () => {
    const index = open();
    index.add(messages);
    index.add([{ id: 10, topic: 'Release plans', contentHtml: '<p>postponed</p>' }]);
    expect(index.search('zanzibar')).toEqual([12]);
    expect(index.search('postponed')).toEqual([10]);
    expect(index.search('release plans')).toEqual([10]);
    index.remove([12, 999]);
    expect(index.search('friday')).toEqual([11]);
    index.clear();
    expect(index.search('lunch')).toEqual([]);
    index.add([messages[1]]);
    expect(index.search('lunch')).toEqual([11]);
  });

  it('keeps its table across a reopen, and another key finds nothing in it', () => {
    open().add(messages);
    db.close();
    expect(open().search('zanzibar')).toEqual([12, 10]);
    db.close();
    expect(open(CacheCipher.newKey()).search('zanzibar')).toEqual([]);
  });

  it('keeps no word of the messages readable in the file', () => {
    const index = open();
    const words = ['zanzibar', 'quixotic', 'friday', 'lunch', 'release'];
    index.add(messages);
    index.add([{ id: 20, topic: 'secret', contentHtml: `<p>${words.join(' ')}</p>` }]);
    expect(index.search('quixotic')).toEqual([20, 11]);
    const bytes = () =>
      [path, `${path}-wal`]
        .filter((file) => existsSync(file))
        .map((file) => readFileSync(file).toString('latin1').toLowerCase())
        .join('');
    const inWal = bytes();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const checkpointed = bytes();
    expect(checkpointed.length).toBeGreaterThan(0);
    for (const word of [...words, 'secret', 'ships']) {
      expect(inWal).not.toContain(word);
      expect(checkpointed).not.toContain(word);
    }
  });
});

describe('search words', () => {
  it('cuts text and queries alike', () => {
    expect(htmlText('<p>a&lt;b&gt; &#x41;&#66; &nbsp;&unknown;</p>')).toBe(' a<b> AB  &unknown; ');
    expect(searchWords('Ünïcode ĞÜZEL, Straße Ｆｕｌｌ-width 日本語')).toEqual([
      'unicode',
      'guzel',
      'straße',
      'full',
      'width',
      '日本語',
    ]);
    expect(queryPhrases('a "b  c" d.e "')).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });
});
