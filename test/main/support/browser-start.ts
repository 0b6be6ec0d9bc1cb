// `npm start` in browser mode as a child process, for tests of the launcher: resolves once it prints
// the app's URL (with the per-launch secret), keeping every line it printed for the test to read.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface BrowserStart {
  child: ChildProcess;
  /** Everything printed so far; later lines are appended as they come. */
  lines: string[];
  appUrl: URL;
}

export async function startBrowserMode(dataDir: string, args: string[]): Promise<BrowserStart> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/start.ts',
      '--browser',
      '--no-open',
      '--port',
      '0',
      '--data',
      dataDir,
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const found = /^Tributary is running at (\S+)$/.exec(line);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`npm start exited with ${code}: ${lines.join('\n')}`)),
    );
  });
  return { child, lines, appUrl: new URL(url) };
}

export async function stopBrowserMode(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
