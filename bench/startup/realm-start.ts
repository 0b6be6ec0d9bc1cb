// The local realm process's own start, without a window (npm run bench:realm-start): the built
// realm process forked as the app forks it (its tree's own fork-realm.mjs: flags, niceness,
// environment), then the first requests a sign-in makes, as main makes them (server settings and
// `/users/me`, the register with main's parameters, the first page of messages). For each launch,
// from the fork: wall time and the process's CPU (user + system of all its threads, from
// /proc/PID/stat, 10 ms ticks) at its `listening` message, at the register's answer and at the
// first page's answer. CPU is the figure to read on a loaded machine: wall time there is mostly
// waiting for the cores.
//
// Kinds (BENCH_KINDS=first,returning,large, all by default):
// - first: a fresh folder, the build's demo template copied with a key made beforehand, as a first
//   `npm start` does (launch-realm-early.mjs);
// - returning: a copy of a demo folder that has started once before;
// - large: a copy of the large realm (bench/support/large-realm.ts), signed in as its owner.
// BENCH_APP=DIR,DIR... alternates the launches of several built trees (a scratch worktree of main
// first: "before"), one launch of each in turn, BENCH_RUNS=N rounds (default 5).
// BENCH_REALM_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" runs the realm process with those flags
// (through a wrapper script as its node: Node 20 refuses --cpu-prof in NODE_OPTIONS). A V8 flag
// may make V8 reject the build's code cache, which the realm then writes anew: profile a copy of
// the tree with such flags.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { DEFAULT_REGISTER_PARAMS, messagesParams } from '../../shared/api/register-params';
import { SEEDED_PAGES } from '../../shared/demo-seed';
import { seededLargeRealm } from '../support/large-realm';

const root = fileURLToPath(new URL('../..', import.meta.url));
const APPS = (process.env.BENCH_APP ?? root).split(',').filter(Boolean);
const RUNS = Number(process.env.BENCH_RUNS ?? '5');
const KINDS = (process.env.BENCH_KINDS ?? 'first,returning,large').split(',');
const TICK_MS = 1000 / 100;

interface Credential {
  user_id: number;
  email: string;
  api_key: string;
  role: number;
  is_bot: boolean;
}

interface ForkRealm {
  forkRealmProcess(options: {
    root: string;
    config: Record<string, unknown>;
    ownerKey?: string;
    nodePath?: string;
  }): ChildProcess;
  planFirstRealm(): Promise<{ port: number; ownerKey: string; copyAt: number }>;
}

interface Moment {
  wallMs: number;
  cpuMs: number;
}

interface Launch {
  app: string;
  kind: string;
  listening: Moment;
  register: Moment;
  firstPage: Moment;
  registerBytes: number;
}

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function owner(dataDir: string): Credential {
  const { users } = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    users: Credential[];
  };
  return users.find((user) => user.role === 100 && !user.is_bot) ?? users[0];
}

async function ask(
  url: string,
  who: Credential,
  path: string,
  params?: Record<string, unknown>,
  method = 'GET',
  /** A refusal for the server-time budget (a loaded machine's slow register) is an answer too. */
  refusalIsAnswer = false,
): Promise<string> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {}))
    form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  const query = method === 'GET' && params ? `?${form}` : '';
  const response = await fetch(`${url}/api/v1${path}${query}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: method === 'POST' ? form : undefined,
  });
  const text = await response.text();
  if (!response.ok && !(refusalIsAnswer && response.status === 429))
    throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A node that adds BENCH_REALM_NODE_ARGS to the realm process's own flags. */
function nodeWithArgs(): string | undefined {
  const args = process.env.BENCH_REALM_NODE_ARGS;
  if (!args) return undefined;
  const wrapper = join(mkdtempSync(join(os.tmpdir(), 'tributary-realm-node-')), 'node');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${args} "$@"\n`, {
    mode: 0o755,
  });
  return wrapper;
}
const NODE_PATH = nodeWithArgs();

/** A demo folder that has started once (a returning launch copies it), per tree. */
const returningFolders = new Map<string, string>();

async function launch(app: string, kind: string, largeDir: string | null): Promise<Launch> {
  const fork = (await import(
    pathToFileURL(join(app, 'server/process/fork-realm.mjs')).href
  )) as ForkRealm;
  const folder = mkdtempSync(join(os.tmpdir(), 'tributary-realm-start-'));
  const dataDir = join(folder, 'local-realm');
  let config: Record<string, unknown>;
  let ownerKey: string | undefined;
  if (kind === 'first') {
    const plan = await fork.planFirstRealm();
    ownerKey = plan.ownerKey;
    config = { dataDir, port: plan.port, seed: 'demo', copyAt: plan.copyAt };
  } else if (kind === 'returning') {
    cpSync(returningFolders.get(app)!, dataDir, { recursive: true });
    config = { dataDir, port: 0, seed: 'demo' };
  } else {
    cpSync(largeDir!, dataDir, { recursive: true });
    config = { dataDir, port: 0, seed: 'large' };
  }
  const startedAt = performance.now();
  const child = fork.forkRealmProcess({ root: app, config, ownerKey, nodePath: NODE_PATH });
  const pid = child.pid!;
  const moment = (): Moment => ({ wallMs: performance.now() - startedAt, cpuMs: cpuMs(pid) });
  try {
    const { url, listening } = await new Promise<{ url: string; listening: Moment }>(
      (resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the realm exited (${code})`)));
        child.on('message', (message: { type: string; url?: string; message?: string }) => {
          if (message.type === 'listening') resolve({ url: message.url!, listening: moment() });
          else reject(new Error(`the realm failed: ${message.message}`));
        });
      },
    );
    const who = owner(dataDir);
    await Promise.all([ask(url, who, '/server_settings'), ask(url, who, '/users/me')]);
    const body = await ask(url, who, '/register', { ...DEFAULT_REGISTER_PARAMS }, 'POST');
    const register = moment();
    const { narrow, request } = SEEDED_PAGES[0];
    await ask(url, who, '/messages', { ...messagesParams(narrow, request) }, 'GET', true);
    const firstPage = moment();
    return {
      app,
      kind,
      listening,
      register,
      firstPage,
      registerBytes: Buffer.byteLength(body),
    };
  } finally {
    await stop(child);
    if (kind === 'first' && !returningFolders.has(app)) {
      // This first launch's folder, stopped cleanly, is what each returning launch starts from.
      returningFolders.set(app, dataDir);
    } else {
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
  const largeDir = KINDS.includes('large') ? (await seededLargeRealm(1)).dir : null;
  // The returning launches need a demo folder that has started once.
  if (KINDS.includes('returning')) {
    for (const app of APPS) if (!returningFolders.has(app)) await launch(app, 'first', null);
  }
  const launches: Launch[] = [];
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
  console.log(
    `realm start — ${os.cpus().length} cores, load ${load()}, ${new Date().toISOString()}`,
  );
  for (let run = 0; run < RUNS; run++) {
    for (const kind of KINDS) {
      for (const app of APPS) {
        let result: Launch;
        try {
          result = await launch(app, kind, largeDir);
        } catch (error) {
          // A start that failed (on a machine loaded past Fastify's 10 s plugin timeout, say) is
          // reported and left out of the medians; the rounds go on.
          console.log(
            `${kind.padEnd(9)} ${app.padEnd(28)} failed: ${(error as Error).message.slice(0, 120)}`,
          );
          continue;
        }
        launches.push(result);
        const show = (m: Moment) => `${m.wallMs.toFixed(0)} ms (CPU ${m.cpuMs.toFixed(0)})`;
        console.log(
          `${kind.padEnd(9)} ${app.padEnd(28)} listening ${show(result.listening)}, register ${show(result.register)}, first page ${show(result.firstPage)}, load ${load()}`,
        );
      }
    }
  }
  console.log('\nmedians (wall / CPU ms from the fork):');
  for (const kind of KINDS) {
    for (const app of APPS) {
      const mine = launches.filter((l) => l.app === app && l.kind === kind);
      const figure = (pick: (l: Launch) => Moment) =>
        `${median(mine.map((l) => pick(l).wallMs)).toFixed(0)} / ${median(mine.map((l) => pick(l).cpuMs)).toFixed(0)}`;
      console.log(
        `${kind.padEnd(9)} ${app.padEnd(28)} listening ${figure((l) => l.listening)}, register ${figure((l) => l.register)}, first page ${figure((l) => l.firstPage)} (${mine.length} launches, register ${mine[0]?.registerBytes} bytes)`,
      );
    }
  }
  for (const folder of returningFolders.values()) rmSync(join(folder, '..'), { recursive: true });
}

await main();
