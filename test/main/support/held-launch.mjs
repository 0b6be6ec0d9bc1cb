// `npm start` as scripts/launch.mjs runs it, but the start bundle waits for a line "go" on stdin:
// the socket is bound and the URL printed (launch-early.mjs) while the host does not exist yet,
// for as long as a test needs to send it requests. Prints "held request" and "held upgrade" for
// each that reaches the socket before "go", so a test knows they came before the host.
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { launchEarly } from '../../../scripts/launch-early.mjs';
import { runStart } from '../../../scripts/launch-start.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const early = await launchEarly(root, process.argv.slice(2));
globalThis.tributaryEarlyLaunch = early;
let holding = true;
early?.server.on('request', () => holding && console.log('held request'));
early?.server.on('upgrade', () => holding && console.log('held upgrade'));
const input = createInterface({ input: process.stdin });
await new Promise((resolve) => input.on('line', (line) => line === 'go' && resolve()));
input.close();
holding = false;
await runStart(root);
