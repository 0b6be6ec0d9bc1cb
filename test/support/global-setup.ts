/**
 * Once per Vitest project and run: a folder for the run's seeded realm templates
 * (test/support/realm-template.ts), removed when the project's tests are done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'tributary-realm-templates-'));
  project.provide('realmTemplates', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
