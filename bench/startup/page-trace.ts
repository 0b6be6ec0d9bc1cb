// What a start-up bench sees of the page beyond its milestones (bench:startup-trace, and
// bench:startup-cache with BENCH_TRACE=1): the bridge's WebSocket handshake and round trips, read
// from Chromium's DevTools protocol in the page's own clock, and the page's long tasks.
import type { CDPSession, Page } from 'playwright-core';

export interface RoundTrip {
  method: string;
  sentMs: number;
  answeredMs: number | null;
  /** Other calls still unanswered when this one was sent. */
  inFlight: number;
}

export interface BridgeTrace {
  /** The bridge's WebSocket: handshake sent and answered (the page's clock). */
  socket: { askedMs: number | null; openMs: number | null };
  roundTrips: RoundTrip[];
  pushes: Array<{ channel: string; ms: number; bytes: number }>;
}

/** Notes in the page when the first message row appears, and collects long tasks. */
export const observePage = `(() => {
  const trace = (window.__startTrace = { longTasks: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) trace.longTasks.push({ startMs: e.startTime, durationMs: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    if (trace.firstMessageMs === undefined && document.querySelector('[data-testid=message]'))
      trace.firstMessageMs = performance.now();
  }).observe(document, { childList: true, subtree: true });
})();`;

export type RecordedFrames = Array<{ sent: boolean; at: number; text: string }> & {
  handshake?: { asked?: number; open?: number };
};

/** Records the bridge's WebSocket frames (CDP timestamps are seconds on the page's monotonic clock). */
export function recordFrames(cdp: CDPSession): RecordedFrames {
  const frames: RecordedFrames = [];
  frames.handshake = {};
  cdp.on('Network.webSocketWillSendHandshakeRequest', (e) => {
    frames.handshake!.asked ??= e.timestamp;
  });
  cdp.on('Network.webSocketHandshakeResponseReceived', (e) => {
    frames.handshake!.open ??= e.timestamp;
  });
  cdp.on('Network.webSocketFrameSent', (e) =>
    frames.push({ sent: true, at: e.timestamp, text: e.response.payloadData }),
  );
  cdp.on('Network.webSocketFrameReceived', (e) =>
    frames.push({ sent: false, at: e.timestamp, text: e.response.payloadData }),
  );
  return frames;
}

export function roundTrips(frames: RecordedFrames, navigationStartS: number): BridgeTrace {
  const ms = (at: number) => Math.round((at - navigationStartS) * 1000 * 10) / 10;
  const { asked, open } = frames.handshake ?? {};
  const socket = {
    askedMs: asked === undefined ? null : ms(asked),
    openMs: open === undefined ? null : ms(open),
  };
  const trips = new Map<number, RoundTrip>();
  const pushes: BridgeTrace['pushes'] = [];
  for (const frame of frames) {
    let parsed: { t?: string; id?: number; method?: string; channel?: string };
    try {
      parsed = JSON.parse(frame.text) as typeof parsed;
    } catch {
      continue;
    }
    if (frame.sent && parsed.t === 'call' && parsed.id !== undefined) {
      const inFlight = [...trips.values()].filter((t) => t.answeredMs === null).length;
      trips.set(parsed.id, {
        method: parsed.method ?? '?',
        sentMs: ms(frame.at),
        answeredMs: null,
        inFlight,
      });
    } else if (!frame.sent && parsed.t === 'result' && parsed.id !== undefined) {
      const trip = trips.get(parsed.id);
      if (trip) trip.answeredMs = ms(frame.at);
    } else if (!frame.sent && parsed.t === 'push') {
      pushes.push({ channel: parsed.channel ?? '?', ms: ms(frame.at), bytes: frame.text.length });
    }
  }
  return { socket, roundTrips: [...trips.values()], pushes };
}

/**
 * The page's time origin in CDP's monotonic seconds: a frame sent now by the page carries a CDP
 * timestamp; performance.now() at the same moment gives the offset.
 */
export async function cdpTimeOrigin(cdp: CDPSession, page: Page): Promise<number> {
  const marker = await new Promise<{ at: number; nowMs: number }>((resolve) => {
    const onRequest = (e: { timestamp: number; request: { url: string } }) => {
      if (!e.request.url.includes('__trace_clock__')) return;
      cdp.off('Network.requestWillBeSent', onRequest);
      void page
        .evaluate(() => (window as unknown as { __traceClock: number }).__traceClock)
        .then((nowMs) => resolve({ at: e.timestamp, nowMs }));
    };
    cdp.on('Network.requestWillBeSent', onRequest);
    void page.evaluate(() => {
      (window as unknown as { __traceClock: number }).__traceClock = performance.now();
      void fetch('/__trace_clock__').catch(() => undefined);
    });
  });
  return marker.at - marker.nowMs / 1000;
}

/** The round trips (and the socket's handshake) as a few indented lines. */
export function printRoundTrips(trace: BridgeTrace, untilMs: number, indent = '     '): void {
  console.log(
    `${indent}bridge socket: handshake sent ${trace.socket.askedMs}, open ${trace.socket.openMs} ms`,
  );
  for (const r of trace.roundTrips.filter((r) => r.sentMs < untilMs))
    console.log(
      `${indent}  ${String(r.sentMs).padStart(7)} → ${String(r.answeredMs ?? '-').padEnd(7)} ${r.method} (in flight ${r.inFlight})`,
    );
}
