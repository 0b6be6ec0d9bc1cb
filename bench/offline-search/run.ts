// Offline search benchmark (npm run bench:offline-search): the `--seed large` realm's messages, as
// the owner reads them from a real local realm server over HTTP, indexed by the cache's SearchIndex
// (electron/cache/search-index.ts) in a fresh WAL file, as background sync would add them (pages of
// 500). Reports the index build time (wall and CPU), the file's size, and the time of keyword
// queries. Bar (issue #23): a keyword query p95 under 50 ms.
//
// Queries, each timed alone and returning every matching id (no limit, the most offstore can ask):
//   vocabulary: a word drawn uniformly from the distinct words (most are rare);
//   frequent: a word drawn from the text itself, so common words come up as often as they are used
//     (many thousands of ids each), and the same with the limit of 1,000 a result page would use;
//   two words: two frequent words ANDed; phrase: two adjacent words of a message, quoted.
// BENCH_LARGE_SCALE=F for a smaller realm; BENCH_QUERIES=N per kind (default 200).
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import { SearchIndex, htmlText, searchWords } from '../../electron/cache/search-index';
import { createRealmServer } from '../../server/app';
import { credentialsPath, type SeededCredential } from '../../server/seed/credentials';
import { seededLargeRealm } from '../support/large-realm';
import { writeBenchFigures } from '../support/output';

const SCALE = Number(process.env.BENCH_LARGE_SCALE ?? '1');
const QUERIES = Number(process.env.BENCH_QUERIES ?? '200');
const PAGE = 5000;
const BATCH = 500;

interface FetchedMessage {
  id: number;
  subject: string;
  content: string;
}

async function allMessages(realmUrl: string, user: SeededCredential): Promise<FetchedMessage[]> {
  const auth = `Basic ${Buffer.from(`${user.email}:${user.api_key}`).toString('base64')}`;
  const out: FetchedMessage[] = [];
  let anchor = 'newest';
  for (;;) {
    const query = new URLSearchParams({
      anchor,
      num_before: String(PAGE),
      num_after: '0',
      include_anchor: anchor === 'newest' ? 'true' : 'false',
      narrow: '[]',
    });
    const response = await fetch(`${realmUrl}/api/v1/messages?${query}`, {
      headers: { authorization: auth },
    });
    if (!response.ok) throw new Error(`GET /messages: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { messages: FetchedMessage[]; found_oldest: boolean };
    out.push(...body.messages);
    if (body.found_oldest || body.messages.length === 0) return out;
    anchor = String(body.messages[0].id);
  }
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round2 = (n: number) => Math.round(n * 100) / 100;

function timeQueries(index: SearchIndex, queries: readonly string[], limit?: number) {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let hits = 0;
  for (const query of queries) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    hits += index.search(query, limit).length;
    ms.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    cpuMs.push((cpu.user + cpu.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpuMs.sort((a, b) => a - b);
  return {
    queries: queries.length,
    meanHits: Math.round(hits / queries.length),
    p50Ms: round2(percentile(ms, 50)),
    p95Ms: round2(percentile(ms, 95)),
    maxMs: round2(ms[ms.length - 1]),
    // The query's own CPU: on a loaded machine wall time also holds the wait for a core.
    cpuP95Ms: round2(percentile(cpuMs, 95)),
  };
}

/** A deterministic pseudo-random sequence, so every run asks the same queries. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

async function main() {
  const realm = await seededLargeRealm(SCALE);
  const work = mkdtempSync(join(os.tmpdir(), 'tributary-offline-search-'));
  try {
    const realmDir = join(work, 'realm');
    cpSync(realm.dir, realmDir, { recursive: true });
    const server = await createRealmServer({
      dataDir: realmDir,
      port: 0,
      rateLimit: false,
      serverTimeBudget: false,
    });
    let messages: FetchedMessage[];
    try {
      const { users } = JSON.parse(readFileSync(credentialsPath(realmDir), 'utf8')) as {
        users: SeededCredential[];
      };
      const owner = users.find((u) => u.role === 100 && !u.is_bot)!;
      const t0 = performance.now();
      messages = await allMessages(server.url, owner);
      console.log(
        `fetched ${messages.length} messages in ${Math.round(performance.now() - t0)} ms`,
      );
    } finally {
      await server.close();
    }

    // The index alone in a cache-like file: WAL, as AccountCache opens it.
    const path = join(work, 'cache.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const index = new SearchIndex(db, CacheCipher.newKey());
    const oldestFirst = [...messages].reverse();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < oldestFirst.length; i += BATCH) {
      index.add(
        oldestFirst
          .slice(i, i + BATCH)
          .map((m) => ({ id: m.id, topic: m.subject, contentHtml: m.content })),
      );
    }
    const buildMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = statSync(path).size;

    // Query words from the messages themselves.
    const next = random(23);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const wordsOf = messages.map((m) => searchWords(`${m.subject} ${htmlText(m.content)}`));
    const vocabulary = [...new Set(wordsOf.flat())];
    const frequentWord = () => {
      for (;;) {
        const words = pick(wordsOf);
        if (words.length > 0) return pick(words);
      }
    };
    const phrase = () => {
      for (;;) {
        const words = pick(wordsOf);
        if (words.length < 2) continue;
        const at = Math.floor(next() * (words.length - 1));
        return `"${words[at]} ${words[at + 1]}"`;
      }
    };
    const list = (make: () => string) => Array.from({ length: QUERIES }, make);
    const vocabularyQueries = list(() => pick(vocabulary));
    const frequentQueries = list(frequentWord);
    const twoWordQueries = list(() => `${frequentWord()} ${frequentWord()}`);
    const phraseQueries = list(phrase);
    timeQueries(index, frequentQueries.slice(0, 20)); // warm the page cache as a running app has it

    const figures = {
      date: new Date().toISOString(),
      machine: { nproc: os.cpus().length, cpu: os.cpus()[0]?.model, loadavg: os.loadavg() },
      scale: SCALE,
      messages: messages.length,
      distinctWords: vocabulary.length,
      build: {
        wallMs: Math.round(buildMs),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        messagesPerSecond: Math.round((messages.length / buildMs) * 1000),
        batch: BATCH,
      },
      fileBytes: bytes,
      bytesPerMessage: Math.round(bytes / Math.max(1, messages.length)),
      queries: {
        vocabulary: timeQueries(index, vocabularyQueries),
        frequent: timeQueries(index, frequentQueries),
        frequentLimit1000: timeQueries(index, frequentQueries, 1000),
        twoWords: timeQueries(index, twoWordQueries),
        phrase: timeQueries(index, phraseQueries),
      },
    };
    db.close();
    const file = writeBenchFigures('offline-search', figures);
    console.log(JSON.stringify(figures, null, 2));
    const { frequent, frequentLimit1000: page } = figures.queries;
    const p95 = Math.max(figures.queries.vocabulary.p95Ms, frequent.p95Ms);
    console.log(
      `keyword query p95: every match ${p95} ms, newest 1,000 ${page.p95Ms} ms (bar 50 ms)`,
    );
    console.log(file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
