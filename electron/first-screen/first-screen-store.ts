// The first screen main keeps per account for the next launch (shared/ipc/first-screen.ts): taken
// only from the active account, cleaned again here (sanitize-screen.ts), sealed at rest with the
// account's cache key (the same cipher as the cache: protected as the API key is) in
// DATA/accounts/<id>/first-screen.json beside the cache, and kept in memory. It follows the cache:
// none without a cache key or with --no-cache, and gone when the account is signed out or removed
// or its offline copy is cleared. Only the active account's screen is ever handed out. A first
// launch's demo account starts with the screens the build made of the demo (seedFromBuild).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { MethodHandlers } from '../../shared/ipc/contract';
import type {
  FirstScreen,
  FirstScreenLaunchKey,
  firstScreenMethods,
} from '../../shared/ipc/first-screen';
import { accountFolder } from '../accounts/account-files';
import type { Vault } from '../accounts/vault';
import { CacheCipher } from '../cache/cache-cipher';
import { readCacheKey } from '../cache/cache-service';
import { writeJsonFile } from '../storage/json-file';
import { sanitizeFirstScreen, shiftFirstScreenTimes } from './sanitize-screen';

export interface KeptFirstScreen {
  keys: FirstScreenLaunchKey[];
  screen: FirstScreen;
}

/**
 * On disk: the sealed JSON of a KeptFirstScreen (version 1) or of a list of them, each for its own
 * launches (version 2: the build's screens of a first launch), base64 (writeJsonFile: written to a
 * temp file and renamed).
 */
interface SealedFile {
  version: 1 | 2;
  sealed: string;
}

export interface FirstScreenStoreOptions {
  dataDir: string;
  vault: Vault;
  /** The active account as the account list has it (accounts.json, read when main starts). */
  activeAccountId: () => string | null;
  /** Whether the account list has this account. */
  known: (accountId: string) => boolean;
  /** --no-cache: nothing of a realm is written to disk, so no screen is kept either. */
  disabled?: boolean;
  /**
   * The conversation a launch without a view reopens for the account (its view as a first screen
   * names it: firstScreenNarrowView), or null when none is remembered and the home view decides.
   */
  reopens?: (accountId: string) => string | null;
}

export function firstScreenPath(dataDir: string, accountId: string): string {
  return join(accountFolder(dataDir, accountId), 'first-screen.json');
}

/** Bound in: a file copied into another account's folder does not open. */
const sealContext = (accountId: string) => `first-screen:${accountId}`;

export class FirstScreenStore {
  /** Per account: its screens, or null when it has none (read once, then kept here). */
  private readonly kept = new Map<string, KeptFirstScreen[] | null>();
  /** The markup of the last copy accepted per account, before cleaning: the same again is not redone. */
  private readonly lastOffered = new Map<string, string>();

  constructor(private readonly options: FirstScreenStoreOptions) {}

  /**
   * Keeps `screen` as the account's first screen for launches with one of `keys`. False when it is
   * not kept: not the active account, no cache, or nothing left once cleaned.
   */
  save(accountId: string, keys: FirstScreenLaunchKey[], screen: FirstScreen): boolean {
    const cipher = this.keepsFor(accountId);
    if (!cipher) return false;
    const launches = this.launchKeys(accountId, keys, screen.view);
    if (launches.length === 0) return false;
    const sameAsLast = this.lastOffered.get(accountId) === screen.html;
    const previous = this.read(accountId);
    const html =
      sameAsLast && previous?.length === 1
        ? previous[0]!.screen.html
        : sanitizeFirstScreen(screen.html);
    if (!html.trim()) return false;
    this.write(accountId, cipher, [{ keys: launches, screen: { ...screen, html } }]);
    this.lastOffered.set(accountId, screen.html);
    return true;
  }

  /**
   * Gives a new account the screens the build made of the demo (a first launch from the build's
   * seed: electron/cache/account-seed.ts), their marked times moved by the realm copy's
   * `shiftSeconds`, each for its own launches, sealed like any copy. They are not cleaned again:
   * the build took them from this store, which cleaned them then (scripts/demo-first-screens.ts),
   * and they sit in the build's own output beside the code that runs; cleaning them again was about
   * 110 ms of a cold main's CPU on a first launch's path. The page's own copy replaces them once it
   * takes one (save). Whether any was kept.
   */
  seedFromBuild(accountId: string, screens: KeptFirstScreen[], shiftSeconds: number): boolean {
    const cipher = this.keepsFor(accountId);
    if (!cipher) return false;
    const kept: KeptFirstScreen[] = [];
    for (const { keys, screen } of screens) {
      const launches = this.launchKeys(accountId, keys, screen.view);
      const html = shiftFirstScreenTimes(screen.html, shiftSeconds);
      if (launches.length > 0 && html.trim())
        kept.push({ keys: launches, screen: { ...screen, html } });
    }
    if (kept.length === 0) return false;
    this.write(accountId, cipher, kept);
    this.lastOffered.delete(accountId);
    return true;
  }

  /** The cipher to seal the account's screen with, or null when it keeps none now. */
  private keepsFor(accountId: string): CacheCipher | null {
    const { activeAccountId, known, disabled } = this.options;
    if (disabled || accountId !== activeAccountId() || !known(accountId)) return null;
    return this.cipher(accountId);
  }

  private write(accountId: string, cipher: CacheCipher, kept: KeptFirstScreen[]): void {
    const file: SealedFile = {
      version: 2,
      sealed: cipher.seal(JSON.stringify(kept), sealContext(accountId)).toString('base64'),
    };
    writeJsonFile(firstScreenPath(this.options.dataDir, accountId), file);
    this.kept.set(accountId, kept);
  }

  /**
   * Which launches show a screen of `view`: the page's keys (its view's fragment; '' when it is
   * the home view), but '' only for the conversation main reopens when it remembers one.
   */
  private launchKeys(
    accountId: string,
    keys: FirstScreenLaunchKey[],
    view: string,
  ): FirstScreenLaunchKey[] {
    const reopened = this.options.reopens?.(accountId) ?? null;
    const launches = new Set(keys);
    if (reopened !== null) {
      if (reopened === view) launches.add('');
      else launches.delete('');
    }
    return [...launches];
  }

  /** The active account's screen for a launch with `key`, or null. */
  take(key: FirstScreenLaunchKey): FirstScreen | null {
    const accountId = this.handedOutFor();
    if (!accountId) return null;
    return this.read(accountId)?.find((kept) => kept.keys.includes(key))?.screen ?? null;
  }

  /**
   * All the active account's screens, each with the launches it is for (none: an empty list), for
   * the browser-mode host to put in the page itself, where the page's own view (its URL fragment,
   * which the host never sees) picks one (first-screen-route.ts). The same account and rules as
   * `take`.
   */
  takeAll(): KeptFirstScreen[] {
    const accountId = this.handedOutFor();
    return (accountId && this.read(accountId)) || [];
  }

  /**
   * Reads and opens the active account's screens now, so that a page's ask is answered from
   * memory: the browser-mode host does it as it starts, while the browser still makes the page
   * (a cold read, unseal and parse: a few ms of CPU, more of wall under load, that came between
   * the page's ask and its answer).
   */
  readActive(): void {
    const accountId = this.handedOutFor();
    if (accountId) this.read(accountId);
  }

  /** The account whose screens are handed out: the active one, when it is known and kept. */
  private handedOutFor(): string | null {
    const accountId = this.options.activeAccountId();
    if (this.options.disabled || !accountId || !this.options.known(accountId)) return null;
    return accountId;
  }

  /** The account's screen goes, from memory and disk (signed out, removed, offline copy cleared). */
  forget(accountId: string): void {
    this.kept.set(accountId, null);
    this.lastOffered.delete(accountId);
    rmSync(firstScreenPath(this.options.dataDir, accountId), { force: true });
  }

  get handlers(): Pick<MethodHandlers, keyof typeof firstScreenMethods> {
    return {
      saveFirstScreen: ({ accountId, keys, screen }) => {
        this.save(accountId, keys, screen);
        return null;
      },
      firstScreen: ({ key }) => this.take(key),
    };
  }

  private cipher(accountId: string): CacheCipher | null {
    const key = readCacheKey(this.options.vault, accountId);
    return key ? new CacheCipher(key) : null;
  }

  /** The account's screens, read and opened from disk the first time. */
  private read(accountId: string): KeptFirstScreen[] | null {
    const known = this.kept.get(accountId);
    if (known !== undefined) return known;
    let kept: KeptFirstScreen[] | null = null;
    const path = firstScreenPath(this.options.dataDir, accountId);
    if (existsSync(path)) {
      try {
        const file = JSON.parse(readFileSync(path, 'utf8')) as SealedFile;
        const cipher = this.cipher(accountId);
        if ((file.version === 1 || file.version === 2) && cipher) {
          const opened = JSON.parse(
            cipher.open(Buffer.from(file.sealed, 'base64'), sealContext(accountId)),
          ) as KeptFirstScreen | KeptFirstScreen[];
          kept = Array.isArray(opened) ? opened : [opened];
        }
      } catch {
        // Torn, altered or sealed with a key since replaced: as if there were none.
        kept = null;
      }
    }
    this.kept.set(accountId, kept);
    return kept;
  }
}
