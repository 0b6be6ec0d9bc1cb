// Command-line arguments the Electron main process accepts (scripts/start.ts passes them). Deep links
// come as a bare `tributary://…` / `zulip://…` argument (how the OS and a second launch give them)
// or after `--open`. Linux desktop entries (%U) may hand a manifest over as a file:// URL.
import { fileURLToPath } from 'node:url';
import { isDeepLinkUrl } from '../shared/narrow/deep-link';
import { SEED_KINDS, type SeedKind } from '../server/config';

export interface MainArgs {
  dataDir?: string;
  /** A local realm server started by someone else (tests), and its demo credentials. */
  localRealmUrl?: string;
  localRealmCredentials?: string;
  /** Run the local realm server (its own process), seeded so when new. */
  localRealm?: { seed: SeedKind; largeScale: number };
  /** The Node binary for the local realm server's process (the launcher's own). */
  nodePath?: string;
  manifests: string[];
  links: string[];
}

/** The path of a file:// URL on this machine; null for another host's or a malformed one. */
function localPath(url: string): string | null {
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

export function parseMainArgs(argv: string[]): MainArgs {
  const result: MainArgs = { manifests: [], links: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => argv[++i];
    if (arg === '--data') result.dataDir = value();
    else if (arg === '--local-realm') result.localRealmUrl = value();
    else if (arg === '--local-realm-credentials') result.localRealmCredentials = value();
    else if (arg === '--local-realm-seed') {
      const given = value();
      const seed = SEED_KINDS.find((kind) => kind === given);
      if (seed) result.localRealm = { largeScale: 1, ...result.localRealm, seed };
    } else if (arg === '--local-realm-scale') {
      const scale = Number(value());
      if (result.localRealm && scale > 0 && scale <= 10) result.localRealm.largeScale = scale;
    } else if (arg === '--node') result.nodePath = value();
    else if (arg === '--open') {
      const link = value();
      if (link) result.links.push(link);
    } else if (isDeepLinkUrl(arg)) result.links.push(arg);
    else if (arg.startsWith('--'))
      continue; // Chromium and Electron switches
    else if (/^file:\/\/.*\.json$/i.test(arg)) {
      const path = localPath(arg);
      if (path) result.manifests.push(path);
    } else if (/\.json$/i.test(arg)) result.manifests.push(arg);
  }
  return result;
}
