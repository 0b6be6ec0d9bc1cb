// The `--seed large` realm for benchmarks: seeded once per scale and seed version into the system's
// temp folder (seeding takes a quarter of a minute or more), then copied by each bench that uses it.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRealmServer } from '../../server/app';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The seed's sources: a change to any of them makes a new cache. */
function seedVersion(): string {
  const hash = createHash('sha256');
  for (const dir of ['server/seed', 'server/db']) {
    for (const file of readdirSync(join(root, dir)).sort()) {
      if (file.endsWith('.ts')) hash.update(readFileSync(join(root, dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 12);
}

/** A seeded realm folder for `scale`, made once (the seconds it took are kept beside it). */
export async function seededLargeRealm(
  scale: number,
): Promise<{ dir: string; seedSeconds: number; cached: boolean }> {
  const dir = join(os.tmpdir(), `tributary-large-realm-${scale}-${seedVersion()}`);
  const timeFile = join(dir, 'seed-seconds.json');
  if (existsSync(timeFile)) {
    const { seconds } = JSON.parse(readFileSync(timeFile, 'utf8')) as { seconds: number };
    return { dir, seedSeconds: seconds, cached: true };
  }
  const building = mkdtempSync(join(os.tmpdir(), 'tributary-large-seeding-'));
  console.log(`seeding the large realm at scale ${scale} into ${dir} (once)...`);
  const t0 = performance.now();
  const server = await createRealmServer({
    dataDir: building,
    seed: 'large',
    largeScale: scale,
    port: 0,
  });
  const seconds = (performance.now() - t0) / 1000;
  await server.close();
  writeFileSync(join(building, 'seed-seconds.json'), JSON.stringify({ seconds }));
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { dir, seedSeconds: seconds, cached: false };
}
