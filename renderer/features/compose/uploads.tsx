// Uploads from compose: a picked, dropped or pasted file goes to main (uploadFile), which reports
// progress. Each file is a chip (name, size, progress, remove) until the message is sent; when done
// its link is inserted, and the chip stays while that link is in the text. Removing a chip cancels
// an upload under way, or takes a finished one's link out of the text.
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { api, errorText } from '../../bridge/api';
import { uiStore, useUi } from '../../store/ui-store';
import type { UploadProgress } from '../../../shared/ipc/uploads';

interface LocalUpload {
  key: string;
  name: string;
  /** Bytes, as the file said when it was picked. */
  size: number;
  uploadId?: string;
  error?: string;
  /** Once done: the link inserted into the message. */
  link?: string;
}

/** "512 B", "3.4 KB", "12 MB": a file's size as people read it (1 KB = 1024 bytes). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The text without `link` (its first occurrence) and the space inserted before it. */
export function withoutLink(text: string, link: string): string {
  const at = text.indexOf(link);
  if (at < 0) return text;
  let before = text.slice(0, at);
  const after = text.slice(at + link.length);
  if (/ $/.test(before) && (after === '' || /^\s/.test(after))) before = before.slice(0, -1);
  return before + after;
}

export function useUploads(
  accountId: string,
  text: string,
  insert: (snippet: string) => void,
  removeLink: (link: string) => void,
) {
  const [mine, setMine] = useState<LocalUpload[]>([]);
  const [dragging, setDragging] = useState(false);
  const progress = useUi((s) => s.uploads);
  const inserted = useRef(new Set<string>());
  const mineRef = useRef(mine);
  useEffect(() => {
    mineRef.current = mine;
  }, [mine]);
  const update = (key: string, change: Partial<LocalUpload>) =>
    setMine((m) => m.map((u) => (u.key === key ? { ...u, ...change } : u)));
  // Chips removed, noted at once: an upload main names after its chip's removal is cancelled, even
  // when main's answer comes before React has committed the removal (mineRef lags a render behind,
  // and would also miss a chip added in the same render).
  const removed = useRef(new Set<string>());
  // Main's name for each chip's upload, noted as it answers: a chip clicked away before the render
  // that gives it its uploadId still cancels the transfer.
  const named = useRef(new Map<string, string>());
  const drop = (key: string) => {
    removed.current.add(key);
    setMine((m) => m.filter((x) => x.key !== key));
  };

  const start = (files: File[]) => {
    for (const file of files) {
      const key = `${Date.now()}-${Math.random()}`;
      setMine((m) => [
        ...m.filter((u) => !u.link || text.includes(u.link)),
        { key, name: file.name || 'pasted-file', size: file.size },
      ]);
      api()
        .uploadFile(accountId, file)
        .then(({ uploadId }) => {
          // Removed before main answered: stop the transfer now.
          if (removed.current.has(key)) {
            void api().cancelUpload({ uploadId });
          } else {
            named.current.set(key, uploadId);
            update(key, { uploadId });
          }
        })
        .catch((e: unknown) => update(key, { error: errorText(e) }));
    }
  };

  // Finished uploads insert their link once; cancelled ones leave the list.
  useEffect(
    () =>
      uiStore.subscribe((state) => {
        for (const u of mineRef.current) {
          const p = u.uploadId ? state.uploads[u.uploadId] : undefined;
          if (p?.state === 'done' && p.url && !inserted.current.has(p.uploadId)) {
            inserted.current.add(p.uploadId);
            const link = `[${p.filename ?? p.name}](${p.url})`;
            insert(link);
            update(u.key, { link });
          } else if (p?.state === 'cancelled') {
            drop(u.key);
          }
        }
      }),
    [insert],
  );

  // A finished file's chip lasts as long as its link: sending (which empties the text) or deleting
  // the link by hand takes the chip away (forgotten for good at the next upload).
  const shown = mine.filter((u) => !u.link || text.includes(u.link));

  const remove = (u: LocalUpload) => {
    const uploadId = u.uploadId ?? named.current.get(u.key);
    if (u.link) removeLink(u.link);
    else if (uploadId && !u.error && progress[uploadId]?.state !== 'failed') {
      void api().cancelUpload({ uploadId });
    }
    drop(u.key);
  };

  const dropHandlers = {
    onDragOver: (e: DragEvent) => {
      if (![...e.dataTransfer.types].includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (e: DragEvent) => {
      setDragging(false);
      if (e.dataTransfer.files.length === 0) return;
      e.preventDefault();
      start([...e.dataTransfer.files]);
    },
  };
  const onPaste = (e: ClipboardEvent) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0) return;
    e.preventDefault();
    start(files);
  };
  return { mine: shown, progress, dragging, start, remove, dropHandlers, onPaste };
}

export function UploadList({
  mine,
  progress,
  remove,
}: {
  mine: LocalUpload[];
  progress: Record<string, UploadProgress>;
  remove: (u: LocalUpload) => void;
}) {
  if (mine.length === 0) return null;
  return (
    <ul className="uploads" aria-label="Attachments">
      {mine.map((u) => {
        const p = u.uploadId ? progress[u.uploadId] : undefined;
        const failed = u.error ?? (p?.state === 'failed' ? (p.error?.msg ?? 'failed') : undefined);
        const uploading = !u.link && !failed;
        return (
          <li
            key={u.key}
            data-testid="upload"
            className={`upload-chip${failed ? ' failed' : ''}${u.link ? ' done' : ''}`}
          >
            <span className="upload-name" title={u.name}>
              {u.name}
            </span>
            <span className="upload-size">{formatFileSize(p?.total || u.size)}</span>
            {uploading ? (
              <progress
                aria-label={`Uploading ${u.name}`}
                max={p?.total || 1}
                value={p ? p.loaded : 0}
              />
            ) : null}
            {failed ? <span role="alert">Upload failed: {failed}</span> : null}
            <button
              type="button"
              className="upload-remove"
              aria-label={uploading ? `Cancel upload of ${u.name}` : `Remove ${u.name}`}
              title={uploading ? 'Cancel upload' : 'Remove'}
              onClick={() => remove(u)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
