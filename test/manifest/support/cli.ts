// `npm run manifest -- ARGS` as a child process, without npm's start-up: the command line run by
// node from a bundle made once per worker (test/support/bundled-entry.ts; through tsx, each of
// the files' twenty-odd children spent 1.5–2 s of CPU compiling the same modules). cli.test.ts
// still runs it once through npm as documented.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { bundledEntry } from '../../support/bundled-entry';

export const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** The command line's exit status and output for `args`, from the repository's root. */
export async function manifestCli(...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [bundledEntry('scripts/manifest-cli.ts'), ...args],
      { cwd: ROOT },
    );
    return { status: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
