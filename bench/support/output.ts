// Where every benchmark leaves its figures: bench/.out/<name>.json (git-ignored), from which the lead
// updates docs/benchmarks.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_OUT = fileURLToPath(new URL('../.out', import.meta.url));

/** Writes `figures` as bench/.out/<name>.json and returns the file's path. */
export function writeBenchFigures(name: string, figures: unknown): string {
  mkdirSync(BENCH_OUT, { recursive: true });
  const file = join(BENCH_OUT, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  return file;
}
