// The hostile member of bench/hostile-load (phase 3) in a process of its own: it builds its large
// requests (1,000 names, 5,000 ids, 10,000 characters) and takes in their answers (megabytes of
// messages) off the event loop that stamps the other clients' deliveries. In the bench's own
// process it stalled that loop up to 270 ms, and the stall counted as the server's latency. The
// requests, their order and their pacing (back to back, one at a time) are unchanged.
//
// Forked by run.ts: says { ready: true }, runs one MemberJob, answers with a MemberReport and
// ends when the bench disconnects.
import { hostileRequests, timed, useNamesFrom } from './requests';

export interface MemberJob {
  url: string;
  authorization: string;
  receivers: number[];
  messageIds: number[];
  /** Channel names already used in this run (phase 1): the member's new ones follow them. */
  namesUsed: number;
  durationMs: number;
  /** Keep every request let in (not refused with 429), for --trace. */
  trace: boolean;
}

export interface MemberReport {
  startedEpochMs: number;
  endedEpochMs: number;
  perRequest: Record<string, { ms: number[]; statuses: Record<number, number> }>;
  accepted: Array<{ label: string; startMs: number; ms: number; status: number }>;
  errors: Record<string, number>;
  requests: number;
  bytesSent: number;
  bytesReceived: number;
}

export async function runMember(job: MemberJob): Promise<MemberReport> {
  useNamesFrom(job.namesUsed);
  const requests = hostileRequests(job.receivers, job.messageIds);
  const report: MemberReport = {
    startedEpochMs: Date.now(),
    endedEpochMs: 0,
    perRequest: {},
    accepted: [],
    errors: {},
    requests: 0,
    bytesSent: 0,
    bytesReceived: 0,
  };
  for (let i = 0; Date.now() - report.startedEpochMs < job.durationMs; i++) {
    const request = requests[i % requests.length];
    const { method, path, params } = request.next();
    const result = await timed(job.url, job.authorization, method, path, params);
    report.requests += 1;
    report.bytesSent += result.bytesSent;
    report.bytesReceived += result.bytesReceived;
    if ('done' in request) request.done?.(result.status);
    if (job.trace && result.status !== 429) {
      const { ms, status } = result;
      const startMs = result.startedEpochMs - report.startedEpochMs;
      report.accepted.push({ label: request.label, startMs, ms, status });
    }
    const entry = (report.perRequest[request.label] ??= { ms: [], statuses: {} });
    entry.ms.push(result.ms);
    entry.statuses[result.status] = (entry.statuses[result.status] ?? 0) + 1;
    // A 429 is the budget refusing the member (counted in `statuses`), not an error of the run.
    if (result.error && result.status !== 429) {
      const kind = `${request.label} ${result.status}: ${result.error}`;
      report.errors[kind] = (report.errors[kind] ?? 0) + 1;
    }
  }
  report.endedEpochMs = Date.now();
  return report;
}

if (process.send) {
  process.once('message', (job: MemberJob) => {
    // It stays until the bench disconnects, so its CPU time can be read after the phase.
    void runMember(job).then((report) => process.send!(report));
  });
  process.send({ ready: true });
}
