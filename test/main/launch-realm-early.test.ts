// A first launch's realm process is forked by the launcher before its start bundle loads
// (scripts/launch-realm-early.mjs), and only then: with no account in the data folder, a realm that
// has never listened (no port.json) and a built realm bundle newer than its sources. Any other
// launch leaves the fork to start.ts (after its build). The fork itself and its adoption are tested
// in realm-process.test.ts; npm start's first launch end to end in test/e2e/launch.test.ts.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkFirstRealmEarly } from '../../scripts/launch-realm-early.mjs';
import { REALM_PROCESS_BUNDLE, REALM_PROCESS_INPUTS } from '../../server/process/supervisor';

let root: string;
let dataDir: string;
const args = () => ['--browser', '--no-open', '--data', dataDir];

/** A stand-in app root: the realm's sources, and its bundle built `bundleAge` seconds after them. */
function app(bundleAge: number | null) {
  const sourcesAt = Date.now() / 1000 - 3600;
  for (const input of REALM_PROCESS_INPUTS) {
    const path = join(root, input);
    if (input.endsWith('.json')) writeFileSync(path, '{}');
    else mkdirSync(path, { recursive: true });
    utimesSync(path, sourcesAt, sourcesAt);
  }
  if (bundleAge === null) return;
  const bundle = join(root, REALM_PROCESS_BUNDLE);
  mkdirSync(join(bundle, '..'), { recursive: true });
  writeFileSync(bundle, '');
  utimesSync(bundle, sourcesAt + bundleAge, sourcesAt + bundleAge);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tributary-early-realm-app-'));
  dataDir = mkdtempSync(join(tmpdir(), 'tributary-early-realm-data-'));
});
afterEach(() => {
  delete (globalThis as { tributaryEarlyRealm?: unknown }).tributaryEarlyRealm;
  rmSync(root, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a first launch's early realm fork", () => {
  it('is left to start.ts when the data folder has an account', async () => {
    app(60);
    writeFileSync(join(dataDir, 'accounts.json'), JSON.stringify({ accounts: [{ id: 'a' }] }));
    expect(await forkFirstRealmEarly(root, args())).toBeNull();
  });

  it('is left to start.ts when the realm has listened before (its port is remembered)', async () => {
    app(60);
    mkdirSync(join(dataDir, 'local-realm'));
    writeFileSync(join(dataDir, 'local-realm', 'port.json'), JSON.stringify({ port: 4567 }));
    expect(await forkFirstRealmEarly(root, args())).toBeNull();
  });

  it('is left to start.ts when the bundle is missing or older than a source (the build remakes it)', async () => {
    app(null);
    expect(await forkFirstRealmEarly(root, args())).toBeNull();
    app(-60);
    expect(await forkFirstRealmEarly(root, args())).toBeNull();
    expect((globalThis as { tributaryEarlyRealm?: unknown }).tributaryEarlyRealm).toBeUndefined();
  });
});
