// Types of launch-early.mjs (plain JavaScript: `npm start` runs it before any transpiler loads).
import type { LaunchListener } from '../electron/host/early-listener.mjs';

export interface StartArgs {
  help: boolean;
  browser: boolean;
  open: boolean;
  port: number;
  /** Undefined without --data: then defaultDataDir(). */
  dataDir: string | undefined;
  seed: 'demo' | 'large';
  largeScale: number;
  /** `--open LINK` values. */
  openLinks: string[];
  positionals: string[];
}

export interface EarlyLaunch extends LaunchListener {
  url: string;
}

export function parseStartArgs(argv: string[]): StartArgs;

export function defaultDataDir(): Promise<string>;

export function installedElectron(root: string): string | null;

export function electronFetchMarker(root: string): string;

export function electronMissingReason(root: string): string | null;

export function openInBrowser(url: string): void;

export function launchEarly(root: string, argv: string[]): Promise<EarlyLaunch | null>;
