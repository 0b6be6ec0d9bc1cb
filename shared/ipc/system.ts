// App-level calls: what runtime we are in, opening links and uploaded files outside the app, and
// launch requests such as a manifest path given on the command line.
import * as z from 'zod';
import { forAccount, payload } from './common';
import { method, push } from './define';
import type { DeepLink } from '../narrow/deep-link';

export interface AppInfo {
  runtime: 'electron' | 'browser';
  version: string;
  platform: string;
}

export interface OpenManifestRequest {
  path: string;
}

export const systemMethods = {
  getAppInfo: method<AppInfo>()(payload({})),
  /** Opens http, https and mailto links in the system's handler; anything else is refused. */
  openExternal: method<null>()(payload({ url: z.string().min(1).max(8192) })),
  /**
   * Opens a file uploaded to an account's realm (a `/user_uploads/…` link in a message) in the
   * system browser, through the short-lived download URL main fetches from the realm: the API key
   * stays in main, and only that URL on the account's own server is opened.
   */
  openUpload: method<null>()(forAccount({ path: z.string().min(1).max(4096) })),
  /**
   * Launch requests not yet taken (e.g. `npm start -- path/to/manifest.json`, a deep link the app was
   * started with), then cleared.
   */
  takeLaunchRequests: method<{ openManifest: OpenManifestRequest[]; openLink: DeepLink[] }>()(
    payload({}),
  ),
  /** The local realm server's process as the app runs it; null when this launch runs none. */
  getLocalRealm: method<LocalRealmStatus | null>()(payload({})),
  /** Starts the local realm server again after it failed (the banner's Retry). */
  retryLocalRealm: method<null>()(payload({})),
} as const;

/**
 * The local realm server runs in its own process, started and supervised by the app: `starting`,
 * `running` at `url`, `restarting` after it stopped unexpectedly (again at `retryAt`, epoch ms), or
 * `failed` (it could not start, or kept stopping) until the person retries, or `stopped` (the app
 * stopped it, even during its first start: not a failure, nothing is shown). Said on screen:
 * "The local server {restarting.reason}" ("stopped unexpectedly (SIGKILL)") and "The local server
 * is not running: {failed.reason}" ("port 9991 is taken by another program", "the disk is full").
 */
export type LocalRealmStatus = (
  | { state: 'starting' }
  | { state: 'running'; url: string }
  | { state: 'restarting'; reason: string; retryAt: number }
  | { state: 'failed'; reason: string }
  | { state: 'stopped' }
) & {
  /**
   * The launcher will sign in to it as the demo owner once it runs (a first launch, whose window
   * opens while the realm is still being created): the page waits rather than offering sign-in.
   */
  preparingDemo?: boolean;
};

/**
 * Whether the page reaches the app's own process. Said by the transport itself, not by main: the
 * browser-mode bridge when its socket drops and comes back; Electron's never (page and main live
 * and die together).
 */
export interface HostConnection {
  status: 'connected' | 'lost';
}

export const systemPushes = {
  openManifest: push<OpenManifestRequest>(),
  host: push<HostConnection>(),
  localRealm: push<LocalRealmStatus>(),
} as const;
