// Drafts, kept by main so nothing the user typed is lost: every save is on disk first. When the
// user's enable_drafts_synchronization setting is on, local drafts are mirrored to the server
// (POST/PATCH/DELETE /drafts) and server drafts (register snapshot, drafts events) are merged in.
//
// Conflict rule, the same for every path by which news of the server arrives (snapshot, event, a
// failed edit): the newer write wins, and text typed here is never thrown away.
// - A server version newer than an unsynced local edit replaces it; an older one is ignored.
// - A deletion on the server carries no time, and a draft edited here since its last sync is a
//   write the deletion cannot have seen: the edit wins and is re-created on the server as a new
//   draft. A draft not edited here since its last sync follows the deletion and disappears.
import { randomUUID } from 'node:crypto';
import type { DraftBody, LocalDraft } from '../../shared/ipc/drafts';
import type { Draft, StoredDraft } from '../../shared/api/types';
import type { DraftsEvent } from '../../shared/api/events';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export interface DraftsTransport {
  create(draft: Draft): Promise<number>;
  edit(id: number, draft: Draft): Promise<void>;
  remove(id: number): Promise<void>;
  isOnline(): boolean;
}

interface DraftsFile {
  drafts: LocalDraft[];
  /** Server ids deleted locally but not yet on the server. */
  pendingDeletes: number[];
}

export class DraftStore {
  private data: DraftsFile;
  private syncEnabled = false;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  /** Bodies of creates in flight: their drafts "add" event may arrive before the create's answer. */
  private readonly creating = new Set<string>();
  /** The account was removed: nothing is written any more (forget()). */
  private forgotten = false;

  constructor(
    private readonly file: string,
    private readonly transport: DraftsTransport,
    private readonly onChange: (drafts: LocalDraft[]) => void = () => undefined,
  ) {
    this.data = readJsonFile<DraftsFile>(file, { drafts: [], pendingDeletes: [] });
  }

  list(): LocalDraft[] {
    return [...this.data.drafts].sort((a, b) => b.timestamp - a.timestamp);
  }

  save(key: string | undefined, draft: DraftBody): LocalDraft {
    const timestamp = Math.floor(Date.now() / 1000);
    const existing = key ? this.data.drafts.find((d) => d.key === key) : undefined;
    const saved: LocalDraft = existing
      ? { ...existing, draft, timestamp, synced: false }
      : { key: key ?? randomUUID(), serverId: null, draft, timestamp, synced: false };
    this.data.drafts = [...this.data.drafts.filter((d) => d.key !== saved.key), saved];
    this.persist();
    void this.sync();
    return saved;
  }

  delete(key: string): void {
    const existing = this.data.drafts.find((d) => d.key === key);
    if (!existing) return;
    this.data.drafts = this.data.drafts.filter((d) => d.key !== key);
    if (existing.serverId !== null) this.data.pendingDeletes.push(existing.serverId);
    this.persist();
    void this.sync();
  }

  /** From the register response: the setting, and the server's drafts ([] when syncing is off). */
  applySnapshot(enabled: boolean, serverDrafts: StoredDraft[]): void {
    this.syncEnabled = enabled;
    if (enabled) {
      const onServer = new Set(serverDrafts.map((d) => d.id));
      for (const local of this.data.drafts) {
        if (local.serverId !== null && !onServer.has(local.serverId))
          this.deletedOnServer(local.serverId);
      }
      for (const draft of serverDrafts) this.mergeServerDraft(draft);
      this.persist();
    }
    void this.sync();
  }

  applyEvent(event: DraftsEvent): void {
    if (event.op === 'add') for (const draft of event.drafts) this.mergeServerDraft(draft);
    else if (event.op === 'update') this.mergeServerDraft(event.draft);
    else this.deletedOnServer(event.draft_id);
    this.persist();
  }

  /** The conflict rule above: an unsynced local edit outlives the deletion, as a new draft. */
  private deletedOnServer(serverId: number): void {
    this.data.drafts = this.data.drafts
      .filter((d) => !(d.serverId === serverId && d.synced))
      .map((d) => (d.serverId === serverId ? { ...d, serverId: null } : d));
  }

  setSyncEnabled(enabled: boolean): void {
    this.syncEnabled = enabled;
    if (enabled) void this.sync();
  }

  /** Pushes unsynced local changes to the server; a failure leaves them for the next reconnect. */
  sync(): Promise<void> {
    if (!this.syncEnabled || !this.transport.isOnline()) return Promise.resolve();
    if (this.syncing) {
      // A change made while a pass is running gets its own pass afterwards.
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.syncAgain = false;
        await this.syncAll().catch(() => undefined);
      } while (this.syncAgain && this.syncEnabled && this.transport.isOnline());
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async syncAll(): Promise<void> {
    for (const id of [...this.data.pendingDeletes]) {
      await this.transport.remove(id).catch((error: { code?: string }) => {
        if (error.code !== 'BAD_REQUEST') throw error; // already gone on the server
      });
      this.data.pendingDeletes = this.data.pendingDeletes.filter((pending) => pending !== id);
      this.persist();
    }
    for (const local of this.data.drafts.filter((d) => !d.synced)) {
      const body: Draft = { ...local.draft, timestamp: local.timestamp };
      if (local.serverId === null) {
        const signature = draftSignature(local.draft);
        this.creating.add(signature);
        let id: number;
        try {
          id = await this.transport.create(body);
        } finally {
          this.creating.delete(signature);
        }
        // Our own "add" event may have been merged as a separate entry meanwhile: fold it in.
        this.data.drafts = this.data.drafts.filter(
          (d) => !(d.serverId === id && d.key !== local.key),
        );
        this.update(local.key, { serverId: id, synced: true }, local);
      } else {
        const edited = await this.transport.edit(local.serverId, body).then(
          () => true,
          (error: { status?: number }) => {
            // Deleted on the server since we last heard: the edit wins, created anew next pass.
            if (error.status !== 404) throw error;
            return false;
          },
        );
        if (edited) this.update(local.key, { synced: true }, local);
        else {
          this.deletedOnServer(local.serverId);
          this.persist();
          this.syncAgain = true;
        }
      }
    }
  }

  /**
   * Marks a draft synced unless it was edited again while the request was in flight. Every save
   * stores a new draft body, so the body's identity tells an edit apart even within the same second
   * (timestamps are whole seconds).
   */
  private update(key: string, patch: Partial<LocalDraft>, seen: LocalDraft): void {
    this.data.drafts = this.data.drafts.map((d) =>
      d.key === key
        ? {
            ...d,
            ...patch,
            synced:
              d.timestamp === seen.timestamp && d.draft === seen.draft
                ? (patch.synced ?? d.synced)
                : false,
          }
        : d,
    );
    this.persist();
  }

  private mergeServerDraft(draft: StoredDraft): void {
    const local = this.data.drafts.find((d) => d.serverId === draft.id);
    if (!local && this.creating.has(draftSignature(toDraftBody(draft)))) return; // our own create
    const timestamp = draft.timestamp ?? Math.floor(Date.now() / 1000);
    if (local && !local.synced && local.timestamp >= timestamp) return; // local edit is newer
    const merged: LocalDraft = {
      key: local?.key ?? `server-${draft.id}`,
      serverId: draft.id,
      draft: toDraftBody(draft),
      timestamp,
      synced: true,
    };
    this.data.drafts = [...this.data.drafts.filter((d) => d.key !== merged.key), merged];
  }

  /** The account is removed: no sync, and no write of the file from now on. */
  forget(): void {
    this.forgotten = true;
    this.syncEnabled = false;
  }

  private persist(): void {
    if (this.forgotten) return;
    writeJsonFile(this.file, this.data);
    this.onChange(this.list());
  }
}

function toDraftBody(draft: Draft): DraftBody {
  if (draft.type === 'stream') {
    return { type: 'stream', to: [draft.to[0]], topic: draft.topic, content: draft.content };
  }
  if (draft.type === 'private') {
    return { type: 'private', to: draft.to, topic: '', content: draft.content };
  }
  return { type: '', to: [], topic: '', content: draft.content };
}

function draftSignature(draft: DraftBody): string {
  return JSON.stringify([draft.type, draft.to, draft.topic, draft.content]);
}
