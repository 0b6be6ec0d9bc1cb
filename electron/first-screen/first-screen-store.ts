// The first screen main keeps per account for the next launch (shared/ipc/first-screen.ts): taken
// only from the active account, cleaned again here (sanitize-screen.ts), sealed at rest with the
// account's cache key (the same cipher as the cache: protected as the API key is) in
// DATA/accounts/<id>/first-screen.json beside the cache, and kept in memory. It follows the cache:
// none without a cache key or with --no-cache, and gone when the account is signed out or removed
// or its offline copy is cleared. Only the active account's screen is ever handed out.
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
import { sanitizeFirstScreen } from './sanitize-screen';

interface Kept {
  keys: FirstScreenLaunchKey[];
  screen: FirstScreen;
}

/** On disk: the sealed JSON of a Kept, base64 (writeJsonFile: written to a temp file and renamed). */
interface SealedFile {
  version: 1;
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
  /** Per account: its screen, or null when it has none (read once, then kept here). */
  private readonly kept = new Map<string, Kept | null>();
  /** The markup of the last copy accepted per account, before cleaning: the same again is not redone. */
  private readonly lastOffered = new Map<string, string>();

  constructor(private readonly options: FirstScreenStoreOptions) {}

  /**
   * Keeps `screen` as the account's first screen for launches with one of `keys`. False when it is
   * not kept: not the active account, no cache, or nothing left once cleaned.
   */
  save(accountId: string, keys: FirstScreenLaunchKey[], screen: FirstScreen): boolean {
    const { activeAccountId, known, disabled } = this.options;
    if (disabled || accountId !== activeAccountId() || !known(accountId)) return false;
    const launches = this.launchKeys(accountId, keys, screen.view);
    if (launches.length === 0) return false;
    const cipher = this.cipher(accountId);
    if (!cipher) return false;
    const sameAsLast = this.lastOffered.get(accountId) === screen.html;
    const previous = this.read(accountId);
    const html = sameAsLast && previous ? previous.screen.html : sanitizeFirstScreen(screen.html);
    if (!html.trim()) return false;
    const kept: Kept = { keys: launches, screen: { ...screen, html } };
    const file: SealedFile = {
      version: 1,
      sealed: cipher.seal(JSON.stringify(kept), sealContext(accountId)).toString('base64'),
    };
    writeJsonFile(firstScreenPath(this.options.dataDir, accountId), file);
    this.kept.set(accountId, kept);
    this.lastOffered.set(accountId, screen.html);
    return true;
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
    const accountId = this.options.activeAccountId();
    if (this.options.disabled || !accountId || !this.options.known(accountId)) return null;
    const kept = this.read(accountId);
    return kept?.keys.includes(key) ? kept.screen : null;
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

  /** The account's screen, read and opened from disk the first time. */
  private read(accountId: string): Kept | null {
    const known = this.kept.get(accountId);
    if (known !== undefined) return known;
    let kept: Kept | null = null;
    const path = firstScreenPath(this.options.dataDir, accountId);
    if (existsSync(path)) {
      try {
        const file = JSON.parse(readFileSync(path, 'utf8')) as SealedFile;
        const cipher = this.cipher(accountId);
        if (file.version === 1 && cipher)
          kept = JSON.parse(
            cipher.open(Buffer.from(file.sealed, 'base64'), sealContext(accountId)),
          ) as Kept;
      } catch {
        // Torn, altered or sealed with a key since replaced: as if there were none.
        kept = null;
      }
    }
    this.kept.set(accountId, kept);
    return kept;
  }
}
