// Every `npm run bench:*` script checks what it needs before it starts (bench/support/preflight.mjs)
// and says how to get what is missing, instead of dying with a stack trace.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const preflight = (name: string, env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, [join(root, 'bench/support/preflight.mjs'), name], {
    env,
    encoding: 'utf8',
  });

describe('bench preflight', () => {
  it('runs first in every bench script', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const benches = Object.entries(scripts).filter(([name]) => name.startsWith('bench:'));
    expect(benches.length).toBeGreaterThan(5);
    for (const [name, command] of benches) {
      expect(command).toMatch(
        new RegExp(`^node bench/support/preflight\\.mjs ${name.slice('bench:'.length)} && `),
      );
      // What it names is a benchmark the preflight knows.
      expect(preflight(name.slice('bench:'.length)).status).not.toBe(2);
    }
  });

  it('says how to get opusenc when it is not installed, and stops', () => {
    const run = preflight('manifest', { ...process.env, PATH: '/nonexistent' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm run bench:manifest cannot run on this machine yet');
    expect(run.stderr).toMatch(/opusenc .*apt-get install opus-tools/);
    expect(run.stderr).not.toMatch(/at .*\.m?js:\d+/);
  });

  it('refuses a name it does not know', () => {
    expect(preflight('nonsense').status).toBe(2);
  });
});
