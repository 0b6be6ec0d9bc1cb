// `npm start` in browser mode as a child process, for tests of the launcher: resolves once it prints
// the app's URL (with the per-launch secret), keeping every line it printed for the test to read.
// Also the other Node processes tests start and crash (the realm server): spawnNode and crash.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface BrowserStart {
  child: ChildProcess;
  /** Everything printed so far; later lines are appended as they come. */
  lines: string[];
  appUrl: URL;
}

export interface SpawnOptions {
  /** In a process group of its own, so that crash() kills it with everything it started. */
  detached?: boolean;
}

export interface BrowserModeOptions extends SpawnOptions {
  /**
   * Through `npm start`'s own launcher (scripts/launch.mjs), which runs the built bundle when it is
   * fresh (no TypeScript compiled at start), instead of scripts/start.ts through tsx.
   */
  launcher?: boolean;
}

/**
 * `node ARGS` from the repository's root; resolves once a printed line matches `ready`, with the
 * match and every line printed (later ones appended as they come).
 */
export async function spawnNode(
  args: string[],
  ready: RegExp,
  options: SpawnOptions = {},
): Promise<{ child: ChildProcess; lines: string[]; found: RegExpExecArray }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: options.detached ?? false,
  });
  const lines: string[] = [];
  const found = await new Promise<RegExpExecArray>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = ready.exec(line);
      if (match) resolve(match);
    });
    child.once('exit', (code, signal) =>
      reject(
        new Error(`node ${args.join(' ')} exited with ${code ?? signal}: ${lines.join('\n')}`),
      ),
    );
  });
  return { child, lines, found };
}

/**
 * `npm start -- --browser` on DIR; resolves once it prints its URL and, on a first launch (no
 * account in DIR yet), once it has signed in to the demo organization, which it now does after
 * printing the URL.
 */
export async function startBrowserMode(
  dataDir: string,
  args: string[],
  options: BrowserModeOptions = {},
): Promise<BrowserStart> {
  const firstLaunch = !existsSync(join(dataDir, 'accounts.json'));
  const { child, lines, found } = await spawnNode(
    [
      ...(options.launcher ? ['scripts/launch.mjs'] : ['--import', 'tsx', 'scripts/start.ts']),
      '--browser',
      '--no-open',
      '--port',
      '0',
      '--data',
      dataDir,
      ...args,
    ],
    /^Tributary is running at (\S+)$/,
    options,
  );
  if (firstLaunch) await printed(child, lines, /^Signed in to the demo organization/);
  return { child, lines, appUrl: new URL(found[1]) };
}

/** Resolves once `child` has printed a line matching `wanted` (already or later). */
function printed(child: ChildProcess, lines: string[], wanted: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!lines.some((line) => wanted.test(line))) return false;
      clearInterval(poll);
      child.off('exit', exited);
      resolve();
      return true;
    };
    const exited = () => {
      clearInterval(poll);
      reject(new Error(`exited before printing ${wanted}: ${lines.join('\n')}`));
    };
    const poll = setInterval(check, 20);
    child.once('exit', exited);
    check();
  });
}

export async function stopBrowserMode(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/**
 * SIGKILL, as a crash: nothing of the process runs again (no exit handler, no last write). A child
 * spawned detached dies with its whole process group, so nothing it started outlives it.
 */
export async function crash(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let group = true;
  try {
    // The group, when it has one of its own (else there is no group of that number: ESRCH).
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    group = false;
    child.kill('SIGKILL');
  }
  await exited;
  // Nothing of the group outlives it (a process it started, killed, is reaped by init).
  for (let waited = 0; group && groupAlive(child.pid!); waited += 50) {
    if (waited > 10_000) throw new Error(`process group ${child.pid} survived SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
