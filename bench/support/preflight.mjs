// `npm run bench:NAME` runs this first (`node bench/support/preflight.mjs NAME && tsx …`): it checks
// what that benchmark needs (the installed packages, better-sqlite3 built for this Node, Chromium,
// opusenc…) and, for anything missing, says what it is for and how to get it, instead of the
// benchmark dying halfway with a stack trace (`spawn opusenc ENOENT`). Plain Node with no imports
// outside node:, so it also runs on a fresh checkout before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const runs = (command, args) => {
  const run = spawnSync(command, args, { stdio: 'ignore' });
  return !run.error && run.status === 0;
};

/** Each thing a benchmark may need: what it is for, whether it is here, and how to get it. */
const REQUIREMENTS = {
  node: {
    what: 'Node.js 20.19 or newer',
    here: () => {
      const [major, minor] = process.versions.node.split('.').map(Number);
      return major > 20 || (major === 20 && minor >= 19);
    },
    how: 'install a current Node.js (Debian: apt-get install nodejs; or nvm install 22)',
  },
  packages: {
    what: "the repository's packages (node_modules)",
    here: () => existsSync(join(root, 'node_modules/tsx/package.json')),
    how: 'run `npm ci` in the repository (README: "Install")',
  },
  sqlite: {
    what: 'better-sqlite3 compiled for this Node (the local realm server stores its data with it)',
    here: () => {
      try {
        const Database = createRequire(join(root, 'package.json'))('better-sqlite3');
        new Database(':memory:').close();
        return true;
      } catch {
        return false;
      }
    },
    how:
      '`npm ci` compiles it; it needs python3, make and a C++ compiler (Debian: apt-get install ' +
      'python3 make g++). After changing Node, run `npm rebuild better-sqlite3`',
  },
  chromium: {
    what: 'Chromium at /usr/bin/chromium (the benchmark measures the app in a real page)',
    here: () => existsSync('/usr/bin/chromium'),
    how: 'Debian/Ubuntu: apt-get install chromium (Playwright never downloads a browser here)',
  },
  opusenc: {
    what: 'opusenc (encodes the one-hour test recording once)',
    here: () => runs('opusenc', ['--version']),
    how: 'Debian/Ubuntu: apt-get install opus-tools (macOS: brew install opus-tools)',
  },
  sha256sum: {
    what: 'sha256sum (the reference the manifest check is timed against)',
    here: () => runs('sha256sum', ['--version']),
    how: 'Debian/Ubuntu: apt-get install coreutils (macOS: brew install coreutils)',
  },
};

const SERVER = ['node', 'packages', 'sqlite'];
const PAGE = [...SERVER, 'chromium'];
/** What each `bench:*` script needs, by the name after `bench:`. */
const BENCHES = {
  server: SERVER,
  hostile: SERVER,
  delivery: SERVER,
  store: ['node', 'packages'],
  render: PAGE,
  startup: PAGE,
  'startup-cache': PAGE,
  'startup-trace': PAGE,
  'startup-chunk': PAGE,
  'realm-start': SERVER,
  large: PAGE,
  'offline-search': SERVER,
  sync: SERVER,
  'cache-crash': ['node', 'packages', 'sqlite'],
  manifest: ['node', 'packages', 'opusenc', 'sha256sum'],
  'meeting-message': [...SERVER, 'opusenc'],
};

const name = process.argv[2];
const needs = BENCHES[name];
if (!needs) {
  console.error(
    `preflight: no benchmark named ${name} (known: ${Object.keys(BENCHES).join(', ')})`,
  );
  process.exit(2);
}
const missing = needs.map((key) => REQUIREMENTS[key]).filter((need) => !need.here());
if (missing.length > 0) {
  console.error(`npm run bench:${name} cannot run on this machine yet. Missing:`);
  for (const need of missing) console.error(`  - ${need.what}: ${need.how}`);
  process.exit(1);
}
