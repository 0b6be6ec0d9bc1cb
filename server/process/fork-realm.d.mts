// Types of fork-realm.mjs (plain JavaScript: npm start forks a first launch's realm before any
// transpiler or bundle loads).
import type { ChildProcess } from 'node:child_process';
import type { MakeDemoTemplateConfig, RealmProcessConfig } from './messages';

export const REALM_PROCESS_BUNDLE: string;
export const REALM_PROCESS_INPUTS: string[];
export const DEMO_TEMPLATE_DIR: string;
export const REALM_NICENESS: number;
export const SERVER_ENV: Readonly<Record<string, string>>;
export const DEMO_OWNER_KEY_ENV: string;

/** What a first launch decides before its realm process starts (fork-realm.mjs, planFirstRealm). */
export interface FirstRealmPlan {
  port: number;
  /** The demo owner's API key in the copy: never in argv, logs or the renderer. */
  ownerKey: string;
  /** UNIX seconds the copy moves the template's dates to. */
  copyAt: number;
}

export function planFirstRealm(): Promise<FirstRealmPlan>;

export function realmProcessEntry(root: string): {
  script: string;
  execArgv: string[];
  /** The built bundle it runs, if it runs one (not the source through tsx). */
  bundle?: string;
};

export interface ForkRealmOptions {
  /** The app's root (the repository, or the packaged app's folder holding dist/). */
  root: string;
  /** The Node binary to run it with (default: this process's; Electron runs itself as Node). */
  nodePath?: string;
  config: RealmProcessConfig;
  /** A first realm's demo owner key, handed to the child in its environment. */
  ownerKey?: string;
}

export function forkRealmProcess(
  options: Omit<ForkRealmOptions, 'config'> & {
    config: RealmProcessConfig | MakeDemoTemplateConfig;
  },
): ChildProcess;

export function forkRealmEarly(options: ForkRealmOptions & { plan?: FirstRealmPlan }): ChildProcess;

export interface EarlyRealm {
  config: RealmProcessConfig;
  plan?: FirstRealmPlan;
  child: ChildProcess;
  /** Stops holding its events and emits the held ones again, in order. */
  release(): void;
}

export function earlyRealmPlan(): FirstRealmPlan | null;

export function adoptEarlyRealm(config: RealmProcessConfig): EarlyRealm | null;
