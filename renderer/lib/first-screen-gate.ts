// When the page's entry may run the app (renderer/shell/boot.ts): once the early script
// (renderer/first-screen.ts) has painted the last screen or found none. The app's evaluation is a
// long task of a few hundred ms; run first, it would hold the first screen's frame back. Only the
// entry imports this: anything the app imports too goes into the app's chunk, which the entry would
// then have to run before it could wait.

/** The most the app waits for the early script's answer (a host slow to answer it). */
export const EARLY_SCRIPT_WAIT_MS = 500;

/** The `<html>` attribute the early script sets: `asking`, then `settled`. */
const ATTRIBUTE = 'data-first-screen-early';

export function earlyScriptSettled(html: HTMLElement = document.documentElement): Promise<void> {
  // Not asking (it has not run, or failed to load): nothing to wait for.
  if (html.getAttribute(ATTRIBUTE) !== 'asking') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (html.getAttribute(ATTRIBUTE) === 'settled') done();
    });
    const timer = setTimeout(done, EARLY_SCRIPT_WAIT_MS);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe(html, { attributes: true, attributeFilter: [ATTRIBUTE] });
  });
}
