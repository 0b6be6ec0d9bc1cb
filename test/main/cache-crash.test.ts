// The local cache survives a crash while it is being written: a child process appends events (and
// now and then replaces the snapshot) until it is SIGKILLed; the reopened cache is intact, holds a
// gap-free run of events after its snapshot, and lost only events handed to it in the last second.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountCache } from '../../electron/cache/account-cache';
import { CacheCipher } from '../../electron/cache/cache-cipher';

const dir = mkdtempSync(join(tmpdir(), 'tributary-cache-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  id: number;
  ms: number;
}

/** Runs the writer until it has written for `killAfterMs`, kills it, returns all it reported. */
function runAndKill(path: string, key: string, killAfterMs: number): Promise<Report[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'support/cache-writer.ts'), path, key],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const reports: Report[] = [];
    let buffered = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [id, ms] = line.split(' ').map(Number);
        reports.push({ id, ms });
        if (!killed && ms >= killAfterMs) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    // 'close', not 'exit': the lines still in the pipe are read first.
    child.on('close', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(reports);
      else reject(new Error(`writer exited without being killed (${signal ?? _code})`));
    });
  });
}

describe('cache crash during writes', () => {
  // Kill points spread over batches, flushes and snapshot replacements (every 3,000 events, about every second).
  it.each([1_500, 2_300, 3_100])(
    'reopens intact after a SIGKILL at %i ms',
    async (killAfterMs) => {
      const path = join(dir, `cache-${killAfterMs}.sqlite`);
      const key = CacheCipher.newKey();
      const reports = await runAndKill(path, key, killAfterMs);
      const last = reports[reports.length - 1];

      const raw = new Database(path);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();

      const cache = AccountCache.open(path, key);
      const { snapshot, events } = cache.load();
      cache.close();
      expect(snapshot).not.toBeNull();
      const base = snapshot!.register.last_event_id;
      // Every event after the snapshot, in order, with no gap.
      events.forEach((event, index) => expect(event.id).toBe(base + index + 1));
      const stored = events.length > 0 ? events[events.length - 1].id : base;
      // Handed to the cache more than a second before the last report: committed.
      const mustHave = reports.filter((r) => r.ms < last.ms - 1000).pop();
      expect(mustHave).toBeDefined();
      expect(stored).toBeGreaterThanOrEqual(mustHave!.id);
      // At most the batch in flight at the kill (handed over, not yet reported) is beyond the reports.
      expect(stored).toBeLessThanOrEqual(last.id + 5);
    },
    60_000,
  );
});
