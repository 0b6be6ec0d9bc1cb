// Timers the large-org bench adds to the page before the app loads (context.addInitScript runs this
// function's source, so it uses nothing from outside it). For every bridge frame carrying a message
// event, and every keydown: the time from its arrival to the end of the task that handled it (the
// store applied, React committed: "work"), to the end of the next painted frame ("paint"), and how
// many frame intervals passed between the last frame before the arrival and the frame that painted
// it (1: painted in the very next frame, nothing missed).
//
// "The end of the frame" is the first task the main thread runs after it, taken at the scheduler's
// user-blocking priority. Until 2026-11-28 it was an ordinary posted message (kept as
// `queuedPaintMs`), which waits in line behind every task already queued at normal priority: on a
// page whose key left low-priority work queued before the frame (React's transition of the
// sidebar filter, the search bar's deferred suggestions) that figure ran to the end of a slice of
// that work done after the frame had been produced, and counted it as the letter's paint. A blank
// page or a plain input queues nothing, so the references read the same either way.
export interface ProbeSample {
  workMs: number;
  paintMs: number;
  /** The same end taken the old way: the first ordinary posted message after the frame. */
  queuedPaintMs: number;
  framesWaited: number;
}

declare global {
  interface Window {
    __probes: {
      events: ProbeSample[];
      keys: ProbeSample[];
      /**
       * The browser's own measure of the same keys (Event Timing API, as for INP): the duration of
       * each keydown it reports, from the key's timestamp to the next frame's presentation, in
       * 8 ms steps. It reports only those of 16 ms or more.
       */
      slowKeydowns: number[];
      /**
       * While watchList holds: for each key after which the watched element changed, the time
       * from the keydown to the end of the first frame after that change (a list that follows its
       * input's letter: the sidebar's filtered channels).
       */
      listPaints: number[];
      /** Watches the first element matching `selector` (changes to inputs inside it aside). */
      watchList(selector: string): void;
      unwatchList(): void;
      reset(): void;
    };
  }
}

export function pageProbes(): void {
  const FRAME_MS = 1000 / 60;
  // The Prioritized Task Scheduling API (Chromium): a user-blocking task runs before the tasks
  // already queued at normal priority.
  const scheduler = (
    window as {
      scheduler?: {
        postTask(task: () => void, options: { priority: 'user-blocking' }): Promise<void>;
      };
    }
  ).scheduler;
  const postTask = scheduler?.postTask.bind(scheduler);

  const probes = {
    events: [] as ProbeSample[],
    keys: [] as ProbeSample[],
    slowKeydowns: [] as number[],
    listPaints: [] as number[],
    watchList(selector: string) {
      const target = document.querySelector(selector);
      if (!target) throw new Error(`no ${selector} to watch`);
      listWatch.observe(target, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    },
    unwatchList() {
      listWatch.disconnect();
      listKeyStart = undefined;
    },
    reset() {
      probes.events.length = 0;
      probes.keys.length = 0;
      probes.slowKeydowns.length = 0;
      probes.listPaints.length = 0;
    },
  };
  /** The last key's timestamp until the watched list first changes after it. */
  let listKeyStart: number | undefined;
  const listWatch = new MutationObserver((records) => {
    const start = listKeyStart;
    if (start === undefined || records.every((r) => r.target.nodeName === 'INPUT')) return;
    listKeyStart = undefined;
    requestAnimationFrame(() => {
      const push = () => probes.listPaints.push(performance.now() - start);
      if (postTask) void postTask(push, { priority: 'user-blocking' });
      else setTimeout(push, 0);
    });
  });
  window.__probes = probes;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name === 'keydown') probes.slowKeydowns.push(entry.duration);
  }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  let lastFrame = performance.now();
  const tick = (ts: number) => {
    lastFrame = ts;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

  const time = (start: number, into: ProbeSample[]) => {
    const frameBefore = lastFrame;
    let workMs = NaN;
    const done = new MessageChannel();
    done.port1.onmessage = () => {
      workMs = performance.now() - start;
      done.port1.close();
    };
    done.port2.postMessage(null);
    requestAnimationFrame((ts) => {
      const framesWaited = Math.max(1, Math.round((ts - frameBefore) / FRAME_MS));
      let paintMs = NaN;
      let queuedPaintMs = NaN;
      const settle = () => {
        if (!Number.isNaN(paintMs) && !Number.isNaN(queuedPaintMs))
          into.push({ workMs, paintMs, queuedPaintMs, framesWaited });
      };
      const painted = new MessageChannel();
      painted.port1.onmessage = () => {
        queuedPaintMs = performance.now() - start;
        if (!postTask) paintMs = queuedPaintMs;
        painted.port1.close();
        settle();
      };
      painted.port2.postMessage(null);
      void postTask?.(
        () => {
          paintMs = performance.now() - start;
          settle();
        },
        { priority: 'user-blocking' },
      );
    });
  };

  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      // Added before the bridge sets onmessage, so it runs first, in the same task.
      this.addEventListener('message', (event) => {
        const data: unknown = event.data;
        if (
          typeof data === 'string' &&
          data.startsWith('{"t":"push","channel":"events"') &&
          data.includes('"type":"message"')
        ) {
          time(performance.now(), probes.events);
        }
      });
    }
  };
  document.addEventListener(
    'keydown',
    (event) => {
      time(event.timeStamp, probes.keys);
      listKeyStart = event.timeStamp;
    },
    true,
  );
}
