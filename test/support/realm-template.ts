/**
 * Seeded realm folders copied from a template made once per test run, instead of seeding every
 * test server anew: seeding the demo realm (two weeks of messages, reactions, emoji, avatars) is
 * most of a test server's start, and the suite starts a few hundred of them.
 *
 * The template is what the seed writes on a first start, taken after that start closed; a copy
 * is a data folder that held a realm already, which the server opens as it does after a restart
 * (server/seed/index.ts leaves such a folder untouched). Seeding depends on the seed kind alone
 * (no server option changes what it writes), so one template per kind serves every test.
 *
 * Where: test/support/global-setup.ts gives each Vitest project a folder for the run (provided as
 * `realmTemplates`); the first worker that needs a kind seeds it there, and a worker that loses the
 * race throws its copy away. Outside Vitest (scripts/screenshots.ts) there is no such folder and
 * realms are seeded as before. The template is as old as the run, never older: the demo's newest
 * message is an hour before the seed, so no test sees its history shift.
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createRealmServer } from '../../server/app';
import { finishDeferredPasswordHashes } from '../../server/realm/accounts';

/** The seeds worth a template: the small ones (the large seed is sized per test). */
export type TemplateSeed = 'demo' | 'empty';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for this run's seeded realm templates (test/support/global-setup.ts). */
    realmTemplates: string;
  }
}

function templatesFolder(): string | null {
  try {
    return inject('realmTemplates') ?? null;
  } catch {
    // Not inside a Vitest worker.
    return null;
  }
}

const making = new Map<TemplateSeed, Promise<string>>();

async function makeTemplate(folder: string, seed: TemplateSeed): Promise<string> {
  const template = join(folder, seed);
  if (existsSync(template)) return template;
  const staging = mkdtempSync(join(folder, `${seed}-staging-`));
  const server = await createRealmServer({
    dataDir: staging,
    seed,
    host: '127.0.0.1',
    port: 0,
    demoPresence: false,
  });
  // The seed hashes its passwords after the listen: the template keeps them hashed, or every
  // copy would hash them again.
  await finishDeferredPasswordHashes(server.db);
  await server.close();
  try {
    // Atomic: a folder named after the seed is always a whole template.
    renameSync(staging, template);
  } catch {
    // Another worker's template got there first.
    rmSync(staging, { recursive: true, force: true });
  }
  return template;
}

/**
 * Fills the empty folder `dataDir` with a copy of the run's seeded realm of that kind. Returns
 * false when there is no template folder (outside Vitest): the server then seeds on its start.
 */
export async function copySeededRealm(dataDir: string, seed: TemplateSeed): Promise<boolean> {
  const folder = templatesFolder();
  if (!folder) return false;
  let template = making.get(seed);
  if (!template) {
    template = makeTemplate(folder, seed);
    making.set(seed, template);
    template.catch(() => making.delete(seed));
  }
  cpSync(await template, dataDir, { recursive: true });
  return true;
}
