// The delivery probe of the background-sync bench (bench/sync/run.ts), in a process of its own so
// that neither the syncing main process's event loop nor its CPU time includes it: other people's
// clients, each long-polling its own event queue, and one sender posting a group direct message to
// all of them at a steady rate. A delivery's latency runs from the send to the arrival of the poll
// response's headers at each receiver (as bench/hostile-load measures it).
//
// Driven over the fork IPC channel: { phase } tags the sends from then on with that phase's name;
// { report: true } stops, answers with each phase's latencies and exits.
import { Histogram, formRequest, longPollMessages } from '../support/http-load';

export interface ProbeSetup {
  realmUrl: string;
  sender: string;
  /** Authorization headers of the receivers, and their user ids (the group DM's recipients). */
  receivers: Array<{ authorization: string; id: number }>;
  /** Sends per second. */
  rate: number;
}

export type ProbeCommand = { phase: string } | { report: true };

export interface PhaseDelivery {
  sent: number;
  delivered: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

const setup = JSON.parse(process.env.SYNC_PROBE_SETUP ?? 'null') as ProbeSetup | null;
if (!setup) throw new Error('SYNC_PROBE_SETUP is not set: bench/sync/run.ts starts this probe');

const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

async function register(authorization: string) {
  const res = await fetch(`${setup!.realmUrl}/api/v1/register`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ event_types: '["message"]', apply_markdown: 'false' }),
  });
  if (!res.ok) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()) as { queue_id: string; last_event_id: number };
}

async function main(): Promise<void> {
  const { realmUrl, sender, receivers, rate } = setup!;
  const queues = await Promise.all(receivers.map((r) => register(r.authorization)));
  const histograms = new Map<string, Histogram>();
  const sentIn = new Map<string, number>();
  const sentAt: number[] = [];
  const phaseOf: string[] = [];
  let phase: string | null = null;
  let running = true;

  const pollers = receivers.map(async (receiver, index) => {
    let lastEventId = queues[index].last_event_id;
    while (running) {
      const res = await longPollMessages(
        realmUrl,
        receiver.authorization,
        queues[index].queue_id,
        lastEventId,
      ).catch(() => null);
      if (res?.status !== 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      lastEventId = res.lastEventId;
      for (const content of res.contents) {
        const seq = /^sync-probe (\d+)$/.exec(content)?.[1];
        if (seq === undefined || phaseOf[Number(seq)] === undefined) continue;
        const name = phaseOf[Number(seq)];
        if (!histograms.has(name)) histograms.set(name, new Histogram());
        histograms.get(name)!.add(res.headersAt - sentAt[Number(seq)]);
      }
    }
  });

  // Open loop at a steady rate: a slow answer does not delay the next send.
  const to = JSON.stringify(receivers.map((r) => r.id));
  let seq = 0;
  const timer = setInterval(() => {
    if (phase === null) return;
    const n = seq++;
    phaseOf[n] = phase;
    sentIn.set(phase, (sentIn.get(phase) ?? 0) + 1);
    sentAt[n] = performance.now();
    void formRequest(
      'POST',
      `${realmUrl}/api/v1/messages`,
      sender,
      form({ type: 'direct', to, content: `sync-probe ${n}` }),
    ).catch(() => undefined);
  }, 1000 / rate);

  process.on('message', (command: ProbeCommand) => {
    if ('phase' in command) {
      phase = command.phase;
      return;
    }
    clearInterval(timer);
    // The last sends' deliveries arrive within a poll's answer; then the report.
    setTimeout(() => {
      running = false;
      const report: Record<string, PhaseDelivery> = {};
      for (const [name, sent] of sentIn) {
        const h = histograms.get(name) ?? new Histogram();
        report[name] = {
          sent,
          delivered: h.count,
          p50_ms: h.percentile(50),
          p99_ms: h.percentile(99),
          max_ms: Math.round(h.max * 10) / 10,
        };
      }
      process.send!(report, () => process.exit(0));
      void pollers;
    }, 2_000);
  });
  process.send!({ ready: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
