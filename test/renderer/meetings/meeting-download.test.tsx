// The viewer opening a meeting from a message, against a recorded stand-in for window.tributary (main's
// side is test/main/meeting-messages.test.ts, the whole path test/e2e/meeting-messages.test.ts): the
// download line follows main's progress pushes, Cancel cancels that download, and what main answers
// (the session, or why not) is what the viewer shows.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ManifestViewer from '../../../renderer/features/manifest/ManifestViewer';
import { TributaryError } from '../../../shared/ipc/errors';
import type { MeetingDownloadProgress, MeetingRef } from '../../../shared/ipc/meetings';
import type { ManifestSession } from '../../../shared/ipc/manifest';
import { verifiedSession } from '../manifest/support/reports';

const meeting: MeetingRef = {
  accountId: 'acct-1',
  manifestPath: '/user_uploads/2/aa/manifest.json',
  paths: ['/user_uploads/2/aa/manifest.json', '/user_uploads/2/bb/recording.opus'],
  title: 'Weekly planning',
};

let calls: Array<{ method: string; payload: unknown }>;
let listeners: Array<(payload: MeetingDownloadProgress) => void>;
let finish: { resolve(session: ManifestSession): void; reject(error: unknown): void };

beforeEach(() => {
  calls = [];
  listeners = [];
  const record =
    <T,>(method: string, answer: (payload: never) => T) =>
    async (payload: unknown) => {
      calls.push({ method, payload });
      return answer(payload as never);
    };
  (window as unknown as { tributary: unknown }).tributary = {
    getAppInfo: record('getAppInfo', () => ({ runtime: 'browser', version: 't', platform: 'x' })),
    listRecentManifests: record('listRecentManifests', () => []),
    closeManifest: record('closeManifest', () => null),
    openMeetingMessage: (payload: unknown) => {
      calls.push({ method: 'openMeetingMessage', payload });
      return new Promise<ManifestSession>((resolve, reject) => (finish = { resolve, reject }));
    },
    cancelMeetingDownload: record('cancelMeetingDownload', () => {
      finish.reject(
        new TributaryError({
          code: 'MEETING_DOWNLOAD_CANCELLED',
          msg: 'The download was cancelled',
        }),
      );
      return null;
    }),
    on: (channel: string, listener: (payload: MeetingDownloadProgress) => void) => {
      if (channel === 'meetingDownloadProgress') listeners.push(listener);
      return () => (listeners = listeners.filter((l) => l !== listener));
    },
  };
});
afterEach(cleanup);

/** main's progress push for the download the viewer started. */
function push(progress: Omit<MeetingDownloadProgress, 'downloadId'>): void {
  const open = calls.find((c) => c.method === 'openMeetingMessage')!;
  const { downloadId } = open.payload as { downloadId: string };
  act(() => listeners.forEach((listener) => listener({ downloadId, ...progress })));
}

describe('opening a meeting from a message', () => {
  it('shows the download with its progress, and Cancel cancels that download', async () => {
    render(<ManifestViewer meeting={meeting} />);
    await screen.findByText('Downloading Weekly planning…');
    const open = calls.find((c) => c.method === 'openMeetingMessage')!;
    expect(open.payload).toEqual({
      accountId: 'acct-1',
      manifestPath: meeting.manifestPath,
      paths: meeting.paths,
      downloadId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
    });
    push({
      file: 'recording.opus',
      fileIndex: 1,
      fileCount: 2,
      receivedBytes: 1024 * 1024,
      totalBytes: 4 * 1024 * 1024,
      state: 'downloading',
    });
    await screen.findByText('Downloading recording.opus (2 of 2): 1.0 MB of 4.0 MB');
    expect(screen.getByRole('progressbar', { name: 'Download progress' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText('The download was cancelled (MEETING_DOWNLOAD_CANCELLED)');
    expect(calls.find((c) => c.method === 'cancelMeetingDownload')!.payload).toEqual({
      downloadId: (open.payload as { downloadId: string }).downloadId,
    });
    expect(screen.queryByTestId('meeting-download')).toBeNull();
  });

  it('shows the checked meeting once main answers with its session', async () => {
    render(<ManifestViewer meeting={meeting} />);
    await screen.findByText('Downloading Weekly planning…');
    push({
      file: 'recording.opus',
      fileIndex: 1,
      fileCount: 2,
      receivedBytes: 0,
      totalBytes: null,
      state: 'checking',
    });
    await screen.findByText('Checking the recording…');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    act(() => finish.resolve(verifiedSession()));
    await screen.findByRole('heading', { name: 'Weekly planning' });
    expect(screen.getByTestId('manifest-audio')).toBeTruthy();
  });
});
