// The local realm server as a child process (the real CLI, started with the node flags of
// `npm run server`), so a benchmark's load generator does not share the server's event loop.
// BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to node to
// profile the server; BENCH_SERVER_ARGS (e.g. "--poll-coalesce-ms 30") is
// passed to the CLI, to compare settings. BENCH_HEAP_SNAPSHOTS=DIR lets the bench ask the server
// for heap snapshots written there (server-memory.ts). BENCH_SERVER_STDOUT=FILE keeps the server's
// standard output there, where V8's own traces go (e.g. BENCH_SERVER_NODE_ARGS=--trace-gc-nvp, which
// says per scavenge how much survived and was promoted); V8 buffers it, so the last seconds before
// the server is stopped may be missing.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEAP_SNAPSHOT_DIR } from './server-memory';
import { SERVER_ENV } from '../../server/process/supervisor';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The node flags of the package's `server` script ("node FLAGS... --import tsx server/cli.ts"). */
function serverScriptNodeFlags(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...words] = pkg.scripts.server.split(/\s+/);
  if (command !== 'node') return [];
  // The flags before --import tsx (or before the script, if the script changes shape).
  const end = words.findIndex((word) => word === '--import' || !word.startsWith('--'));
  return end < 0 ? words : words.slice(0, end);
}

/** `options.root`: another checkout of the repository (e.g. an older commit, to compare). */
export async function startServerProcess(
  dataDir: string,
  options: { root?: string; timeBudget?: boolean } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const cwd = options.root ?? root;
  const child = spawn(
    process.execPath,
    [
      ...serverScriptNodeFlags(cwd),
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...(HEAP_SNAPSHOT_DIR
        ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${HEAP_SNAPSHOT_DIR}`]
        : []),
      '--import',
      'tsx',
      'server/cli.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      '--seed',
      'demo',
      '--rate-limit',
      'off',
      // The budget of server time per user is on only where a bench measures it (hostile-load).
      ...(options.timeBudget ? [] : ['--time-budget', 'off']),
      ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    // The environment the app's supervisor gives the server (server/process/supervisor.ts).
    { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...SERVER_ENV } },
  );
  if (process.env.BENCH_SERVER_STDOUT) {
    child.stdout!.pipe(createWriteStream(process.env.BENCH_SERVER_STDOUT));
  }
  const line = await new Promise<string>((resolve, reject) => {
    // Not the first line: V8's traces, when asked for, come before it.
    const lines = createInterface({ input: child.stdout! });
    const onLine = (text: string) => {
      if (!text.startsWith('listening on ')) return;
      lines.off('line', onLine);
      resolve(text);
    };
    lines.on('line', onLine);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url: line.replace('listening on ', '').trim() };
}
