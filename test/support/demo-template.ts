// A demo realm template made as the build makes it (server/seed/template.ts), in a folder of the
// test's own, with a stand-in for the realm process's bundle: the template is tied to its size and
// time, so a test may "rebuild" it by writing the file again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialsPath, type SeededCredential } from '../../server/seed/credentials';
import { makeDemoTemplate } from '../../server/seed/template';
import { readTemplateStamp, type DemoTemplateLocation } from '../../server/seed/template-stamp';

export interface TestTemplate {
  location: DemoTemplateLocation;
  /** UNIX seconds the seed took as its `now`. */
  seededAt: number;
  /** The template's own people, with the template's keys. */
  users: SeededCredential[];
}

export async function makeTestTemplate(root: string): Promise<TestTemplate> {
  const bundle = join(root, 'realm-process.cjs');
  writeFileSync(bundle, 'the bundle');
  const location = { dir: join(root, 'demo-realm'), bundle };
  await makeDemoTemplate(location);
  return {
    location,
    seededAt: readTemplateStamp(location.dir)!.seededAt,
    users: readCredentials(location.dir),
  };
}

/** The people of a realm folder as its demo-credentials.json lists them. */
export function readCredentials(dir: string): SeededCredential[] {
  return (JSON.parse(readFileSync(credentialsPath(dir), 'utf8')) as { users: SeededCredential[] })
    .users;
}
