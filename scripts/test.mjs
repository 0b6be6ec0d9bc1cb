// `npm test`: the checks and every test, as parallel as two cores allow.
//
// 1. ESLint, Prettier's check, the type check and the build, side by side instead of one after
//    another: each is mostly one thread (10–100 s of CPU each), so in a row they left one core idle
//    for about four minutes. They write to separate places (the build to dist/, tsc to
//    .tsbuild/, which both linters ignore), so none reads what another is writing.
// 2. The e2e tests as soon as the build is done and the others from the start (below), with
//    ESLint, Prettier and tsc carrying on beside them at the lowest priority (nice 19, and their
//    sessions' too) instead of before them: the tests read nothing a check writes (the e2e files
//    drive the built app), and they leave part of the two cores idle while they wait on servers,
//    child processes and Chromium; the niced checks take that idle time and yield the cores
//    whenever a test wants them, so the tests' timeouts see the machine as before. The run used
//    to wait two minutes for the checks first.
// 3. The end-to-end project in a second Vitest process beside the others (Vitest runs its project
//    groups one after another, so one `vitest run` would run e2e after them; docs/testing.md).
//
// A failed check or build stops the tests at once and fails the run. Each report comes live, its
// lines marked with the step's name; the exit status is the worst.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const vitest = bin('vitest/vitest.mjs');

const running = new Set();

function run(command, args, prefix) {
  const child = spawn(command, args, {
    stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'],
    // Its own process group, so a failed check stops Vitest's workers and what they started too.
    detached: true,
  });
  running.add(child);
  if (prefix)
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`${prefix}${line}`));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code ?? 1);
    }),
  );
}

function stopAll() {
  for (const child of running)
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
}
for (const [signal, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
])
  process.on(signal, () => {
    stopAll();
    process.exit(status);
  });

const node = (script, args, prefix) => run(process.execPath, [script, ...args], prefix);
/**
 * Sets the nice value of a child's session where Linux groups the scheduler by session
 * (autogroup): there a session competes as a whole, whatever its threads' nice values, and each
 * child here has a session of its own (detached), so `nice` alone would leave every check as
 * strong as a whole Vitest process. Elsewhere the file is absent and nothing changes.
 */
function setSessionNice(pid, value) {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(value));
  } catch {
    // No autogroup, or not allowed: the threads' own nice values stand.
  }
}

// `nice` is POSIX; where it is missing (Windows) the checks run at the usual priority.
function niced(script, args, prefix) {
  if (!existsSync('/usr/bin/nice')) return node(script, args, prefix);
  const step = run('/usr/bin/nice', ['-n', '19', process.execPath, script, ...args], prefix);
  setSessionNice([...running].at(-1).pid, 19);
  return step;
}

/** Resolves with the step's status; a failure stops everything that runs and ends the run. */
const check = (step) =>
  step.then((code) => {
    if (code !== 0) {
      stopAll();
      process.exit(code);
    }
    return code;
  });

const checks = [
  check(niced(bin('eslint/bin/eslint.js'), ['.'], 'eslint │ ')),
  check(niced(bin('prettier/bin/prettier.cjs'), ['--check', '.'], 'prettier │ ')),
  check(niced(bin('typescript/bin/tsc'), ['-b'], 'typecheck │ ')),
];
const build = check(node(bin('tsx/dist/cli.mjs'), ['scripts/build.ts'], 'build │ '));
// The projects other than e2e need no build (the few files that drive a built bundle call
// buildAll(), which waits on the build's lock), so they start beside it rather than after it: the
// build was their first 40–80 s. Their session yields to the build meanwhile (autogroup nice 10),
// as the e2e files, which wait for it, are the longer leg.
const others = node(vitest, ['run', '--project', '!e2e']);
const othersChild = [...running].at(-1);
setSessionNice(othersChild.pid, 10);
await build;
setSessionNice(othersChild.pid, 0);
const tests = [node(vitest, ['run', '--project', 'e2e'], 'e2e │ '), others];
const status = Math.max(...(await Promise.all(tests)));
// The tests are done: what checks remain need not yield any more (on a machine shared with other
// work, nice 19 would leave them a sliver of it). Every thread, as Linux sets priorities per thread.
for (const child of running) {
  setSessionNice(child.pid, 0);
  try {
    for (const thread of readdirSync(`/proc/${child.pid}/task`)) setPriority(Number(thread), 0);
  } catch {
    // Not Linux, or not allowed to raise a priority: they finish as they are.
  }
}
await Promise.all(checks);
process.exit(status);
