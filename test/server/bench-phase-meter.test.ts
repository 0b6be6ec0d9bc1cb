// bench:hostile reports the server's main thread's CPU apart from its process's
// (bench/support/phase-meter.ts): work moved to a worker thread leaves the process's figure as it
// was, so only the main thread's can show it. Checked on this process: CPU burnt on a worker
// thread counts for the process and not for its main thread.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { processCpuMs } from '../../bench/support/phase-meter';

// Burns until its own thread has used 300 ms of CPU (read from /proc/thread-self, so a loaded
// machine makes it take longer but not use less).
const BURN = `
const { parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const ownMs = () => {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const start = ownMs();
let x = 0;
while (ownMs() - start < 300) for (let i = 0; i < 1_000_000; i++) x = (x + i) | 0;
parentPort.postMessage(x);
`;

describe("the bench's CPU meter", () => {
  it("counts a worker thread's CPU for the process and not for its main thread", async () => {
    const pid = process.pid;
    const processBefore = processCpuMs(pid);
    const mainBefore = processCpuMs(pid, pid);
    const worker = new Worker(BURN, { eval: true });
    // The main thread only waits meanwhile.
    await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    const workerMs = processCpuMs(pid) - processBefore;
    const mainMs = processCpuMs(pid, pid) - mainBefore;
    // The main thread's waiting costs a few ticks at most.
    expect(workerMs).toBeGreaterThanOrEqual(300);
    expect(mainMs).toBeLessThan(150);
  }, 60_000);
});
