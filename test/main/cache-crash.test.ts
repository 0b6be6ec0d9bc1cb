// The local cache survives a crash while it is being written: a child process appends events (and
// now and then replaces the snapshot) until it is SIGKILLed; the reopened cache is intact, holds a
// gap-free run of events after its snapshot, and lost only events handed to it in the last second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CacheCipher } from '../../electron/cache/cache-cipher';
import { readSurvivor, runWriterAndKill } from './support/cache-writer-run';

const dir = mkdtempSync(join(tmpdir(), 'tributary-cache-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cache crash during writes', () => {
  // Kill points spread over batches, flushes and snapshot replacements (every 3,000 events, about every second).
  it.each([1_500, 2_300, 3_100])(
    'reopens intact after a SIGKILL at %i ms',
    async (killAfterMs) => {
      const path = join(dir, `cache-${killAfterMs}.sqlite`);
      const key = CacheCipher.newKey();
      const { reports } = await runWriterAndKill(path, key, killAfterMs);
      const last = reports[reports.length - 1];

      const survivor = readSurvivor(path, key);
      expect(survivor.integrity).toBe('ok');
      expect(survivor.snapshotEventId).not.toBeNull();
      const base = survivor.snapshotEventId!;
      // Every event after the snapshot, in order, with no gap.
      survivor.eventIds.forEach((id, index) => expect(id).toBe(base + index + 1));
      const stored = survivor.eventIds.length > 0 ? survivor.eventIds.at(-1)! : base;
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
