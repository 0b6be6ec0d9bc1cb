// The local realm server as a child process (the real CLI), so a benchmark's load generator does not
// share the server's event loop. BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
// is passed to node to profile the server; BENCH_SERVER_ARGS (e.g. "--poll-coalesce-ms 30") is
// passed to the CLI, to compare settings.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function startServerProcess(
  dataDir: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
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
      ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url: line.replace('listening on ', '').trim() };
}
