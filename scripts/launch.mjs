// `npm start`. First, in browser mode, the host's socket and the URL (launch-early.mjs): the
// browser makes its tab while the rest loads. Then start.ts, from its bundle when that is fresh
// (launch-start.mjs), whose host takes the socket over and answers what the page asked meanwhile.
// Either way the arguments and the other printed lines are start.ts's own.
import { fileURLToPath } from 'node:url';
import { launchEarly } from './launch-early.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
globalThis.tributaryEarlyLaunch = await launchEarly(root, process.argv.slice(2));
if (globalThis.tributaryEarlyLaunch) {
  // A first launch's realm starts now, while the rest loads (launch-realm-early.mjs).
  const { forkFirstRealmEarly } = await import('./launch-realm-early.mjs');
  await forkFirstRealmEarly(root, process.argv.slice(2));
}
// Loaded after the URL: nothing of it is needed to print it.
const { runStart } = await import('./launch-start.mjs');
await runStart(root);
