// The viewer's line while a meeting from a message downloads: which file, how far, and Cancel (which
// main honours by deleting what it had of that file). Leaving the viewer cancels too (ManifestViewer).
import { useEffect, useState } from 'react';
import type { MeetingDownloadProgress } from '../../../shared/ipc/meetings';
import { api } from '../../bridge/api';

export function cancelMeetingDownload(downloadId: string): void {
  void api()
    .cancelMeetingDownload({ downloadId })
    .catch(() => undefined);
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

export function MeetingDownloadStatus({
  downloadId,
  label,
}: {
  downloadId: string;
  label: string;
}) {
  const [progress, setProgress] = useState<MeetingDownloadProgress | null>(null);
  useEffect(() => {
    const off = api().on('meetingDownloadProgress', (next) => {
      if (next.downloadId === downloadId) setProgress(next);
    });
    return off;
  }, [downloadId]);
  const checking = progress?.state === 'checking';
  const total = progress?.totalBytes ?? null;
  return (
    <div className="meeting-download" role="status" data-testid="meeting-download">
      <span>
        {checking
          ? 'Checking the recording…'
          : progress
            ? `Downloading ${progress.file} (${progress.fileIndex + 1} of ${progress.fileCount}): ${megabytes(progress.receivedBytes)}${total !== null ? ` of ${megabytes(total)}` : ''}`
            : label}
      </span>
      {progress && !checking && (
        <progress
          max={total ?? undefined}
          value={total !== null ? progress.receivedBytes : undefined}
          aria-label="Download progress"
        />
      )}
      {!checking && (
        <button type="button" onClick={() => cancelMeetingDownload(downloadId)}>
          Cancel
        </button>
      )}
    </div>
  );
}
