// The renderer main thread's CPU time from a Chromium trace: on a shared machine wall time mostly
// measures the other processes, while the thread clock of the page's tasks does not stretch with
// the load (bench:render's first paints, bench:large's keystrokes).
import type { Page } from 'playwright-core';

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Chromium trace of the page while `work` runs. On a shared machine wall time mostly measures the
 * other processes; the renderer main thread's CPU time (thread clock of its tasks) does not.
 */
export async function traced<T>(
  page: Page,
  work: () => Promise<T>,
): Promise<{ value: T; events: TraceEvent[] }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) =>
    events.push(...(data.value as unknown as TraceEvent[])),
  );
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  const value = await work();
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  return { value, events };
}

/** CPU ms of the renderer main thread's tasks inside [from, to] (trace µs; partial tasks pro rata). */
export function mainThreadCpuMs(events: TraceEvent[], from = -Infinity, to = Infinity): number {
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let busiest = '';
  const cpuBy = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.name !== 'RunTask' || e.ph !== 'X' || !mains.has(thread) || !e.dur) continue;
    const overlap = Math.min(e.ts + e.dur, to) - Math.max(e.ts, from);
    if (overlap <= 0) continue;
    const cpu = ((e.tdur ?? e.dur) * overlap) / e.dur;
    cpuBy.set(thread, (cpuBy.get(thread) ?? 0) + cpu);
    if (!busiest || cpuBy.get(thread)! > cpuBy.get(busiest)!) busiest = thread;
  }
  return (cpuBy.get(busiest) ?? 0) / 1000;
}

/**
 * Main-thread CPU ms inside [from, to] by trace event, self time (a forced Layout inside a script's
 * FunctionCall counts as Layout, not as script): where first paint's CPU goes.
 */
export function mainThreadBreakdown(
  events: TraceEvent[],
  from: number,
  to: number,
  limit = 8,
): Array<{ name: string; ms: number }> {
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const spans = events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.dur !== undefined &&
        mains.has(`${e.pid}:${e.tid}`) &&
        e.ts >= from &&
        e.ts + e.dur <= to,
    )
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const selfMs = new Map<string, number>();
  const open: Array<{ end: number; name: string }> = [];
  for (const e of spans) {
    while (open.length > 0 && open.at(-1)!.end <= e.ts) open.pop();
    const cpu = (e.tdur ?? e.dur!) / 1000;
    selfMs.set(e.name, (selfMs.get(e.name) ?? 0) + cpu);
    const parent = open.at(-1);
    if (parent) selfMs.set(parent.name, (selfMs.get(parent.name) ?? 0) - cpu);
    open.push({ end: e.ts + e.dur!, name: e.name });
  }
  return [...selfMs.entries()]
    .map(([name, ms]): [string, number] => [name === 'RunTask' ? 'RunTask (untraced)' : name, ms])
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms: Math.round(ms * 10) / 10 }));
}
