// The vault: the only place API keys live. Nothing in this module's interface returns a key to the
// renderer side; callers in main fetch one to build an API client's Authorization header.
//
// Two backends: Electron's safeStorage (OS keychain-backed encryption; Linux's weak `basic_text`
// fallback is refused unless the user agreed), and, in browser mode, a file with mode 0600 in the
// data folder. The backend used is recorded per secret so the UI can say how a key is protected.
import { join } from 'node:path';
import type { SecretBackend } from '../../shared/ipc/accounts';
import { IpcCodes } from '../../shared/ipc/errors';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export interface Vault {
  readonly defaultBackend: SecretBackend;
  /** Stores a secret; `allowWeak` is the user's consent to a weak backend where that is all there is. */
  put(id: string, secret: string, options?: { allowWeak?: boolean }): SecretBackend;
  get(id: string): string | null;
  backendOf(id: string): SecretBackend | null;
  delete(id: string): void;
}

export class VaultError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

interface StoredSecret {
  backend: SecretBackend;
  /** Plain for file-0600, base64 ciphertext for safe-storage backends. */
  value: string;
}

/** One JSON file of stored secrets by account id, mode 0600, shared by both vaults. */
class SecretsFile {
  constructor(private readonly path: string) {}

  read(): Record<string, StoredSecret> {
    return readJsonFile<Record<string, StoredSecret>>(this.path, {});
  }

  set(id: string, secret: StoredSecret): void {
    const all = this.read();
    all[id] = secret;
    writeJsonFile(this.path, all, 0o600);
  }

  backendOf(id: string): SecretBackend | null {
    return this.read()[id]?.backend ?? null;
  }

  delete(id: string): void {
    const all = this.read();
    if (!(id in all)) return;
    delete all[id];
    writeJsonFile(this.path, all, 0o600);
  }
}

/** Browser mode: secrets in `<dataDir>/secrets.json`, readable only by the user (0600). */
export class FileVault implements Vault {
  readonly defaultBackend = 'file-0600' as const;
  private readonly file: SecretsFile;

  constructor(dataDir: string) {
    this.file = new SecretsFile(join(dataDir, 'secrets.json'));
  }

  put(id: string, secret: string): SecretBackend {
    this.file.set(id, { backend: 'file-0600', value: secret });
    return 'file-0600';
  }

  get(id: string): string | null {
    const entry = this.file.read()[id];
    return entry?.backend === 'file-0600' ? entry.value : null;
  }

  backendOf(id: string): SecretBackend | null {
    return this.file.backendOf(id);
  }

  delete(id: string): void {
    this.file.delete(id);
  }
}

/** The slice of Electron's safeStorage the vault uses (injected, so this file never imports electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means no keyring, i.e. a hard-coded key. */
  getSelectedStorageBackend?(): string;
}

/** Desktop: secrets encrypted with safeStorage, ciphertext in `<dataDir>/secrets.enc.json` (0600). */
export class SafeStorageVault implements Vault {
  private readonly file: SecretsFile;

  constructor(
    dataDir: string,
    private readonly safeStorage: SafeStorageLike,
    private readonly platform: string = process.platform,
  ) {
    this.file = new SecretsFile(join(dataDir, 'secrets.enc.json'));
  }

  get defaultBackend(): SecretBackend {
    return this.isWeak() ? 'safe-storage-basic-text' : 'safe-storage';
  }

  private isWeak(): boolean {
    return (
      this.platform === 'linux' && this.safeStorage.getSelectedStorageBackend?.() === 'basic_text'
    );
  }

  put(id: string, secret: string, options: { allowWeak?: boolean } = {}): SecretBackend {
    if (!this.safeStorage.isEncryptionAvailable()) {
      throw new VaultError(IpcCodes.unsupported, 'Secure storage is not available on this system');
    }
    if (this.isWeak() && !options.allowWeak) {
      throw new VaultError(
        IpcCodes.weakEncryption,
        'No system keyring is available, so the API key could only be stored with weak encryption (basic_text). Agree to that explicitly to continue.',
      );
    }
    const backend = this.defaultBackend;
    this.file.set(id, {
      backend,
      value: this.safeStorage.encryptString(secret).toString('base64'),
    });
    return backend;
  }

  get(id: string): string | null {
    const entry = this.file.read()[id];
    if (!entry) return null;
    return this.safeStorage.decryptString(Buffer.from(entry.value, 'base64'));
  }

  backendOf(id: string): SecretBackend | null {
    return this.file.backendOf(id);
  }

  delete(id: string): void {
    this.file.delete(id);
  }
}
