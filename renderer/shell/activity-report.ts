// Tells main that the person is using the page (browser mode has no system idle time; in Electron it
// adds to powerMonitor's): input at most every REPORT_EVERY_MS, and at once when the page is shown
// or hidden. Main turns it into presence reports for every account.
import type { Api } from '../bridge/api';

const REPORT_EVERY_MS = 15_000;

export function reportPageActivity(api: Api, doc: Document = document): () => void {
  let lastInputReport = 0;
  const send = (userInput: boolean) => {
    void api
      .reportActivity({ visible: doc.visibilityState === 'visible', userInput })
      .catch(() => undefined);
  };
  const onInput = () => {
    const now = Date.now();
    if (now - lastInputReport < REPORT_EVERY_MS) return;
    lastInputReport = now;
    send(true);
  };
  const onVisibility = () => send(false);
  const inputs = ['keydown', 'pointerdown', 'wheel', 'touchstart'] as const;
  for (const type of inputs) doc.addEventListener(type, onInput, { capture: true, passive: true });
  doc.addEventListener('visibilitychange', onVisibility);
  send(false);
  return () => {
    for (const type of inputs) doc.removeEventListener(type, onInput, { capture: true });
    doc.removeEventListener('visibilitychange', onVisibility);
  };
}
