// Types of launch-code-cache.mjs (plain JavaScript: the launcher runs before any transpiler).
import type { Stats } from 'node:fs';

export function codeCacheFile(bundle: string, stat: Stats): string;

export function runBundleWithCodeCache(
  bundle: string,
  stat: Stats,
  options?: { keepAfterMs?: number },
): void;
