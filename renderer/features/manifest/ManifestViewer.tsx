// The meeting-manifest viewer (rendered by the app shell, renderer/shell/ManifestRoute.tsx). Files are
// reached only through main: a path (command line, recent list, or typed in browser mode), the native
// dialog (Electron), or a dropped file. One manifest is open at a time; opening another, or leaving
// the viewer, closes it in main, which revokes its audio token.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ManifestSession, RecentManifest } from '../../../shared/ipc/manifest';
import type { MeetingRef } from '../../../shared/ipc/meetings';
import { cancelMeetingDownload, MeetingDownloadStatus } from '../meetings/MeetingDownload';
import { openMeeting } from '../meetings/meeting-probes';
import { ManifestView } from './ManifestView';
import { ShareDialog } from './ShareDialog';
import { callErrorText, downloadBase64, mediaUrl, viewerApi } from './manifestApi';
import './manifest.css';

export default function ManifestViewer({
  initialPath,
  meeting,
}: {
  initialPath?: string;
  /** A meeting shared in a message: main downloads it, then it opens like a local manifest. */
  meeting?: MeetingRef;
}) {
  const [session, setSession] = useState<ManifestSession | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentManifest[]>([]);
  const [canUseDialog, setCanUseDialog] = useState(false);
  const [typedPath, setTypedPath] = useState('');
  const [dragging, setDragging] = useState(false);
  /** The session "Share to a conversation…" is open for. */
  const [sharing, setSharing] = useState<string | null>(null);
  const [downloadId, setDownloadId] = useState<string | null>(null);
  // Read by the unmount clean-up: leaving the viewer cancels a download still running.
  const downloadRef = useRef<string | null>(null);
  // Only the latest request may replace what is shown.
  const requestId = useRef(0);
  const sessionRef = useRef<ManifestSession | null>(null);

  const refreshRecent = useCallback(() => {
    viewerApi()
      .listRecentManifests({})
      .then(setRecent, () => undefined);
  }, []);

  const show = useCallback(
    async (label: string, call: () => Promise<ManifestSession>) => {
      const id = ++requestId.current;
      setBusy(label);
      setError(null);
      setNotice(null);
      try {
        const next = await call();
        if (id !== requestId.current) {
          void viewerApi().closeManifest({ sessionId: next.sessionId });
          return;
        }
        const previous = sessionRef.current;
        if (previous && previous.sessionId !== next.sessionId) {
          void viewerApi()
            .closeManifest({ sessionId: previous.sessionId })
            .catch(() => undefined);
        }
        sessionRef.current = next;
        setSession(next);
      } catch (err) {
        if (id === requestId.current) setError(callErrorText(err));
      } finally {
        if (id === requestId.current) setBusy(null);
        refreshRecent();
      }
    },
    [refreshRecent],
  );

  const openPath = useCallback(
    (path: string) => show(`Opening ${path}…`, () => viewerApi().openManifest({ path })),
    [show],
  );

  useEffect(() => {
    refreshRecent();
    viewerApi()
      .getAppInfo({})
      .then(
        (info) => setCanUseDialog(info.runtime === 'electron'),
        () => undefined,
      );
    return () => {
      if (downloadRef.current) cancelMeetingDownload(downloadRef.current);
      const open = sessionRef.current;
      if (open)
        void viewerApi()
          .closeManifest({ sessionId: open.sessionId })
          .catch(() => {});
    };
  }, [refreshRecent]);

  useEffect(() => {
    if (!initialPath) return;
    // Deferred so a remount (React's StrictMode, a quick re-navigation) does not open it twice.
    const timer = setTimeout(() => void openPath(initialPath), 0);
    return () => clearTimeout(timer);
  }, [initialPath, openPath]);

  useEffect(() => {
    if (!meeting) return;
    const timer = setTimeout(() => {
      const id = crypto.randomUUID();
      downloadRef.current = id;
      setDownloadId(id);
      void show(`Downloading ${meeting.title ?? 'the meeting'}…`, () =>
        openMeeting(meeting, id),
      ).finally(() => {
        if (downloadRef.current === id) downloadRef.current = null;
        setDownloadId((current) => (current === id ? null : current));
      });
    }, 0);
    return () => clearTimeout(timer);
  }, [meeting, show]);

  const chooseAudio = (path?: string) => {
    const current = sessionRef.current;
    if (!current) return;
    void show('Checking the audio…', () =>
      viewerApi().chooseManifestAudio({ sessionId: current.sessionId, ...(path ? { path } : {}) }),
    );
  };

  const playAnyway = () => {
    const current = sessionRef.current;
    if (!current) return;
    void show('Preparing the recording…', () =>
      viewerApi().playManifestAnyway({ sessionId: current.sessionId }),
    );
  };

  const saveAttachment = async (index: number) => {
    const current = sessionRef.current;
    if (!current) return;
    setError(null);
    try {
      if (canUseDialog) {
        const { savedTo } = await viewerApi().saveManifestAttachment({
          sessionId: current.sessionId,
          index,
        });
        setNotice(`Saved to ${savedTo}`);
      } else {
        const file = await viewerApi().getManifestAttachment({
          sessionId: current.sessionId,
          index,
        });
        downloadBase64(file.name, file.mime, file.contentBase64);
      }
    } catch (err) {
      setError(callErrorText(err));
    }
  };

  // A dropped audio file re-checks the open manifest; anything else is opened as a manifest.
  const onDrop = (event: React.DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (!file) return;
    const current = sessionRef.current;
    const isAudio = /\.(opus|ogg)$/i.test(file.name);
    void show(`Opening ${file.name}…`, async () => {
      const { token } = await viewerApi().intakeFile(file);
      return isAudio && current
        ? viewerApi().chooseManifestAudio({ sessionId: current.sessionId, token })
        : viewerApi().openManifest({ token });
    });
  };

  return (
    <div
      className={dragging ? 'manifest-viewer manifest-dragging' : 'manifest-viewer'}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="manifest-open" aria-label="Open a meeting manifest" role="group">
        <h2 className="manifest-viewer-title">Meeting manifest</h2>
        {canUseDialog && (
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void show('Opening…', () => viewerApi().openManifest({}))}
          >
            Open…
          </button>
        )}
        {!canUseDialog && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (typedPath.trim()) void openPath(typedPath.trim());
            }}
          >
            <label>
              Manifest path{' '}
              <input
                value={typedPath}
                onChange={(e) => setTypedPath(e.target.value)}
                placeholder="/path/to/manifest.json"
              />
            </label>{' '}
            <button type="submit" disabled={busy !== null || !typedPath.trim()}>
              Open
            </button>
          </form>
        )}
        <span className="manifest-muted"> or drop a manifest (or its audio) here.</span>
        {recent.length > 0 && (
          <details className="manifest-recent" open={!session}>
            <summary>Recent manifests</summary>
            <ul>
              {recent.map((r) => (
                <li key={r.path}>
                  <button type="button" disabled={busy !== null} onClick={() => openPath(r.path)}>
                    {r.title ?? r.path}
                  </button>{' '}
                  <span className="manifest-muted">
                    {r.path} · {r.status}
                  </span>{' '}
                  <button
                    type="button"
                    aria-label={`Forget ${r.path}`}
                    onClick={() =>
                      void viewerApi()
                        .forgetRecentManifest({ path: r.path })
                        .then(setRecent, () => undefined)
                    }
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      {busy && downloadId && <MeetingDownloadStatus downloadId={downloadId} label={busy} />}
      {busy && !downloadId && (
        <p role="status" className="manifest-busy">
          {busy}
        </p>
      )}
      {error && (
        <p role="alert" className="manifest-error">
          {error}
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      {session?.temporaryCopy && (
        <p role="note" className="manifest-muted">
          This is a copy of the dropped file: in browser mode the page cannot see the folder it came
          from, so transcripts and audio beside it are not found. Type its path to open it in place.
        </p>
      )}
      {session && (
        <ManifestView
          key={session.sessionId}
          session={session}
          mediaSrc={session.mediaToken ? mediaUrl(session.mediaToken) : null}
          canUseDialog={canUseDialog}
          busy={busy !== null}
          onChooseAudio={chooseAudio}
          onSaveAttachment={(index) => void saveAttachment(index)}
          onPlayAnyway={playAnyway}
          onShare={session.temporaryCopy ? undefined : () => setSharing(session.sessionId)}
          sharePanel={
            sharing === session.sessionId && (
              <ShareDialog
                sessionId={session.sessionId}
                defaultTopic={session.report.manifest?.meeting.title ?? ''}
                onClose={() => setSharing(null)}
              />
            )
          }
        />
      )}
    </div>
  );
}
