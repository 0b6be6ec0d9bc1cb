// Uploads from compose: a picked, dropped or pasted file goes to main (uploadFile), which reports
// progress; each shows a progress bar and a cancel button, and when done its link is inserted.
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { api, errorText } from '../../src/tributary';
import { uiStore, useUi } from '../../src/ui-store';
import type { UploadProgress } from '../../../shared/ipc/uploads';

interface LocalUpload {
  key: string;
  name: string;
  uploadId?: string;
  error?: string;
}

export function useUploads(accountId: string, insert: (snippet: string) => void) {
  const [mine, setMine] = useState<LocalUpload[]>([]);
  const [dragging, setDragging] = useState(false);
  const progress = useUi((s) => s.uploads);
  const inserted = useRef(new Set<string>());

  const start = (files: File[]) => {
    for (const file of files) {
      const key = `${Date.now()}-${Math.random()}`;
      setMine((m) => [...m, { key, name: file.name || 'pasted-file' }]);
      api()
        .uploadFile(accountId, file)
        .then(({ uploadId }) =>
          setMine((m) => m.map((u) => (u.key === key ? { ...u, uploadId } : u))),
        )
        .catch((e: unknown) =>
          setMine((m) => m.map((u) => (u.key === key ? { ...u, error: errorText(e) } : u))),
        );
    }
  };

  // Finished uploads insert their link once; cancelled ones leave the list.
  const mineRef = useRef(mine);
  useEffect(() => {
    mineRef.current = mine;
  }, [mine]);
  useEffect(
    () =>
      uiStore.subscribe((state) => {
        for (const u of mineRef.current) {
          const p = u.uploadId ? state.uploads[u.uploadId] : undefined;
          if (p?.state === 'done' && p.url && !inserted.current.has(p.uploadId)) {
            inserted.current.add(p.uploadId);
            insert(`[${p.filename ?? p.name}](${p.url})`);
            setMine((m) => m.filter((x) => x.key !== u.key));
          } else if (p?.state === 'cancelled') {
            setMine((m) => m.filter((x) => x.key !== u.key));
          }
        }
      }),
    [insert],
  );

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
  return { mine, progress, dragging, start, dropHandlers, onPaste };
}

export function UploadList({
  mine,
  progress,
}: {
  mine: LocalUpload[];
  progress: Record<string, UploadProgress>;
}) {
  if (mine.length === 0) return null;
  return (
    <ul className="uploads" aria-label="Uploads">
      {mine.map((u) => {
        const p = u.uploadId ? progress[u.uploadId] : undefined;
        const failed = u.error ?? (p?.state === 'failed' ? (p.error?.msg ?? 'failed') : undefined);
        return (
          <li key={u.key} data-testid="upload">
            <span>{u.name}</span>
            <progress
              aria-label={`Uploading ${u.name}`}
              max={p?.total || 1}
              value={p ? p.loaded : 0}
            />
            {failed ? <span role="alert">Upload failed: {failed}</span> : null}
            {u.uploadId && !failed ? (
              <button
                type="button"
                aria-label={`Cancel upload of ${u.name}`}
                onClick={() => void api().cancelUpload({ uploadId: u.uploadId! })}
              >
                Cancel
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
