// `npm run bench:manifest`: verifying a one-hour recording against `sha256sum` of the same file
// (DESIGN.md bar: within 1.3x). Both run warm (file in the page cache); medians of several runs.
// Our side is the real path: 1 MiB reads, Ogg page parse with CRC-32 check, node:crypto SHA-256 of the
// audio packets. Peak memory is measured in a child process that only verifies.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAudioIntegrity } from '../../electron/manifest';
import { ensureRecording } from './make-recording';
import { writeBenchFigures } from '../support/output';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'bench/.out');
const SECONDS = 3600;
const RUNS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function timeOurs(file: string): Promise<number> {
  const started = performance.now();
  const { result } = await readAudioIntegrity({
    found: true,
    source: { via: 'argument', location: file },
    file,
  });
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`the benchmark recording is unreadable: ${result.reason}`);
  return ms;
}

function timeSha256sum(file: string): number {
  const started = performance.now();
  const run = spawnSync('sha256sum', [file], { encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`sha256sum failed: ${run.stderr}`);
  return ms;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, 'manifest-1h.opus');
  const encodeStarted = performance.now();
  await ensureRecording(file, SECONDS);
  const encodeMs = performance.now() - encodeStarted;
  const size = statSync(file).size;
  readFileSync(file); // warm the page cache for both contenders

  // Warm-up, then alternate the two so background load hits both alike.
  await timeOurs(file);
  timeSha256sum(file);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push(await timeOurs(file));
    theirs.push(timeSha256sum(file));
  }
  const oursMs = median(ours);
  const sha256sumMs = median(theirs);

  const child = JSON.parse(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench/manifest/verify-once.ts'), file],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    ),
  );
  const values = child.result.values;

  const figures = {
    benchmark: 'manifest',
    date: new Date().toISOString(),
    machine: { nproc: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    recording: {
      file: 'bench/.out/manifest-1h.opus',
      bytes: size,
      durationMs: values.durationMs,
      channels: values.channels,
      encodedThisRunMs: encodeMs > 1000 ? Math.round(encodeMs) : 0,
    },
    runs: RUNS,
    verifyMedianMs: Math.round(oursMs * 10) / 10,
    sha256sumMedianMs: Math.round(sha256sumMs * 10) / 10,
    ratio: Math.round((oursMs / sha256sumMs) * 100) / 100,
    bar: 'verify within 1.3x of sha256sum',
    meetsBar: oursMs / sha256sumMs <= 1.3,
    verifyThroughputMiBs: Math.round(mib(size) / (oursMs / 1000)),
    sha256sumThroughputMiBs: Math.round(mib(size) / (sha256sumMs / 1000)),
    memory: {
      note: 'child process that only verifies; baseline is after loading the code',
      baselineRssMiB: mib(child.baselineRssBytes),
      peakRssMiB: mib(child.peakRssBytes),
      maxRssMiB: mib(child.maxRssBytes),
      peakHeapUsedMiB: mib(child.peakHeapUsedBytes),
      fileMiB: mib(size),
    },
    allRunsMs: { verify: ours.map(Math.round), sha256sum: theirs.map(Math.round) },
  };
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  console.log(
    `manifest benchmark  ${figures.date}  nproc=${nproc}  cpu=${figures.machine.cpu}  node ${process.version}`,
  );
  console.log(
    `recording: ${mib(size)} MiB, ${(values.durationMs / 60000).toFixed(1)} min, ${values.channels} channel(s)`,
  );
  console.log(
    `verify (read + Ogg/CRC + SHA-256): median ${figures.verifyMedianMs} ms  (${figures.verifyThroughputMiBs} MiB/s)`,
  );
  console.log(
    `sha256sum:                          median ${figures.sha256sumMedianMs} ms  (${figures.sha256sumThroughputMiBs} MiB/s)`,
  );
  console.log(
    `ratio verify/sha256sum: ${figures.ratio}  (bar <= 1.3: ${figures.meetsBar ? 'met' : 'NOT met'})`,
  );
  console.log(
    `memory while verifying: peak RSS ${figures.memory.peakRssMiB} MiB (baseline ${figures.memory.baselineRssMiB} MiB, maxRSS ${figures.memory.maxRssMiB} MiB), peak heap ${figures.memory.peakHeapUsedMiB} MiB, file ${figures.memory.fileMiB} MiB`,
  );
  writeBenchFigures('manifest', figures);
  console.log('wrote bench/.out/manifest.json');
}

await main();
