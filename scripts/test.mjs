// `npm test`'s test step: the end-to-end project beside the others, in two Vitest processes, instead
// of after them as one `vitest run` does (Vitest runs its project groups one after another). The
// e2e files mostly wait (on Chromium, the app host, the realm server), about half a core of a
// 2-core machine, while the unit and renderer files keep two workers busy: side by side the run takes
// about the longer of the two rather than their sum (docs/testing.md).
//
// The e2e report comes live with each line marked "e2e │"; the exit status is the worse of the two.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

function run(args, prefix) {
  const child = spawn(process.execPath, [vitest, 'run', ...args], {
    stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (prefix)
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`${prefix}${line}`));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const codes = await Promise.all([run(['--project', 'e2e'], 'e2e │ '), run(['--project', '!e2e'])]);
process.exit(Math.max(...codes));
