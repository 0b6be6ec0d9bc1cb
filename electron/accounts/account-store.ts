// The list of accounts (no secrets: keys are in the vault) and which one is active, in accounts.json.
import { join } from 'node:path';
import type { AccountSummary } from '../../shared/ipc/accounts';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

/** What the renderer sees of an account, less its live connection state, plus when it was added. */
export interface AccountRecord extends Omit<AccountSummary, 'connection'> {
  addedAt: number;
}

interface AccountsFile {
  accounts: AccountRecord[];
  activeAccountId: string | null;
}

export class AccountStore {
  private readonly path: string;
  private data: AccountsFile;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'accounts.json');
    this.data = readJsonFile<AccountsFile>(this.path, { accounts: [], activeAccountId: null });
  }

  list(): AccountRecord[] {
    return [...this.data.accounts];
  }

  get activeAccountId(): string | null {
    return this.data.activeAccountId;
  }

  get(id: string): AccountRecord | undefined {
    return this.data.accounts.find((account) => account.id === id);
  }

  findBySiteAndEmail(site: string, email: string): AccountRecord | undefined {
    return this.data.accounts.find(
      (account) => account.site === site && account.email.toLowerCase() === email.toLowerCase(),
    );
  }

  upsert(record: AccountRecord): void {
    const known = this.data.accounts.some((account) => account.id === record.id);
    this.data.accounts = known
      ? this.data.accounts.map((account) => (account.id === record.id ? record : account))
      : [...this.data.accounts, record];
    if (!this.data.activeAccountId) this.data.activeAccountId = record.id;
    this.save();
  }

  remove(id: string): void {
    this.data.accounts = this.data.accounts.filter((account) => account.id !== id);
    if (this.data.activeAccountId === id) {
      this.data.activeAccountId = this.data.accounts[0]?.id ?? null;
    }
    this.save();
  }

  /** Moves an account to `toIndex` (clamped to the list), keeping the others' order. */
  move(id: string, toIndex: number): void {
    const moved = this.get(id);
    if (!moved) return;
    const rest = this.data.accounts.filter((account) => account.id !== id);
    const at = Math.max(0, Math.min(toIndex, rest.length));
    this.data.accounts = [...rest.slice(0, at), moved, ...rest.slice(at)];
    this.save();
  }

  setActive(id: string): void {
    this.data.activeAccountId = id;
    this.save();
  }

  private save(): void {
    writeJsonFile(this.path, this.data, 0o600);
  }
}
