// `npm test`: the checks, then every test, each half as parallel as two cores allow.
//
// 1. ESLint, Prettier's check, the type check and the build, side by side instead of one after
//    another: each is mostly one thread (10–100 s of CPU each), so in a row they left one core idle
//    for about four minutes. They write to separate places (the build to dist/, tsc to
//    .tsbuild/, which both linters ignore), so none reads what another is writing. Any failure stops
//    the run before the tests, as the old `&&` chain did.
// 2. The end-to-end project beside the others, in two Vitest processes, instead of after them as one
//    `vitest run` does (Vitest runs its project groups one after another). The e2e files mostly wait
//    (on Chromium, the app host, the realm server), about half a core of a 2-core machine, while the
//    unit and renderer files keep two workers busy: side by side the run takes about the longer of
//    the two rather than their sum (docs/testing.md).
//
// Each report comes live, its lines marked with the step's name; the exit status is the worst.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const vitest = bin('vitest/vitest.mjs');

function run(command, args, prefix) {
  const child = spawn(command, args, {
    stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (prefix)
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`${prefix}${line}`));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const node = (script, args, prefix) => run(process.execPath, [script, ...args], prefix);

const checks = await Promise.all([
  node(bin('eslint/bin/eslint.js'), ['.'], 'eslint │ '),
  node(bin('prettier/bin/prettier.cjs'), ['--check', '.'], 'prettier │ '),
  node(bin('typescript/bin/tsc'), ['-b'], 'typecheck │ '),
  node(bin('tsx/dist/cli.mjs'), ['scripts/build.ts'], 'build │ '),
]);
if (Math.max(...checks) !== 0) process.exit(Math.max(...checks));

const codes = await Promise.all([
  node(vitest, ['run', '--project', 'e2e'], 'e2e │ '),
  node(vitest, ['run', '--project', '!e2e']),
]);
process.exit(Math.max(...codes));
