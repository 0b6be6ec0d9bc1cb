// The viewer's opening flows against a recorded stand-in for window.tributary (the real transports
// are covered by test/main/manifest-service.test.ts and test/e2e/manifest-viewer.test.ts).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ManifestViewer from '../../../renderer/features/manifest/ManifestViewer';
import { TributaryError } from '../../../shared/ipc/errors';
import type { ManifestSession, RecentManifest } from '../../../shared/ipc/manifest';
import { mismatchedSession, verifiedSession } from './support/reports';

interface Call {
  method: string;
  payload: unknown;
}

let calls: Call[];
let recent: RecentManifest[];
let openResult: (payload: { path?: string }) => ManifestSession;

beforeEach(() => {
  calls = [];
  recent = [
    { path: '/meetings/old/manifest.json', title: 'Old meeting', status: 'verified', openedAt: 1 },
  ];
  openResult = () => verifiedSession();
  const record =
    <T,>(method: string, answer: (payload: never) => T) =>
    async (payload: unknown) => {
      calls.push({ method, payload });
      return answer(payload as never);
    };
  (window as unknown as { tributary: unknown }).tributary = {
    getAppInfo: record('getAppInfo', () => ({
      runtime: 'browser',
      version: 'test',
      platform: 'linux',
    })),
    listRecentManifests: record('listRecentManifests', () => recent),
    forgetRecentManifest: record('forgetRecentManifest', ({ path }: { path: string }) => {
      recent = recent.filter((r) => r.path !== path);
      return recent;
    }),
    openManifest: record('openManifest', (payload: { path?: string }) => {
      if (payload.path === '/nope.json') {
        throw new TributaryError({ code: 'MANIFEST_UNREADABLE', msg: 'cannot read /nope.json' });
      }
      return openResult(payload);
    }),
    chooseManifestAudio: record('chooseManifestAudio', () => verifiedSession()),
    closeManifest: record('closeManifest', () => null),
    saveManifestAttachment: record('saveManifestAttachment', () => {
      throw new TributaryError({ code: 'UNSUPPORTED', msg: 'no dialog' });
    }),
    getManifestAttachment: record('getManifestAttachment', () => ({
      name: 'notes.md',
      mime: 'text/markdown',
      contentBase64: 'IyBOb3RlcwoKLSBSZWxlYXNlIG9uIEZyaWRheQo=',
    })),
  };
});
afterEach(cleanup);

const methods = () => calls.map((c) => c.method);

describe('ManifestViewer', () => {
  it('opens the path it was given (command line, launch request) and shows the meeting', async () => {
    render(<ManifestViewer initialPath="/meetings/weekly/manifest.json" />);
    // The first render of the file also loads the viewer's modules: a slow machine needs the margin.
    await screen.findByRole('heading', { name: 'Weekly planning' }, { timeout: 10_000 });
    expect(calls.filter((c) => c.method === 'openManifest')).toEqual([
      { method: 'openManifest', payload: { path: '/meetings/weekly/manifest.json' } },
    ]);
    expect(screen.getByTestId('manifest-audio').getAttribute('src')).toBe(
      '/media/meeting-audio/token-verified-0123456789abcdef',
    );
  });

  it('opens from the recent list and a typed path, closing the previous session', async () => {
    render(<ManifestViewer />);
    fireEvent.click(await screen.findByRole('button', { name: 'Old meeting' }));
    await screen.findByRole('heading', { name: 'Weekly planning' });
    const first = calls.find((c) => c.method === 'openManifest')!;
    expect(first.payload).toEqual({ path: '/meetings/old/manifest.json' });

    openResult = () => mismatchedSession();
    fireEvent.change(screen.getByLabelText(/Manifest path/), {
      target: { value: '/meetings/reencoded/manifest.json' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByTestId('playback-refused');
    expect(calls.filter((c) => c.method === 'openManifest').at(-1)!.payload).toEqual({
      path: '/meetings/reencoded/manifest.json',
    });
    expect(methods()).toContain('closeManifest');
  });

  it('shows a failed open with its code', async () => {
    render(<ManifestViewer initialPath="/nope.json" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('cannot read /nope.json (MANIFEST_UNREADABLE)');
  });

  it('re-checks with an audio path the user types and plays once verified', async () => {
    openResult = () => mismatchedSession();
    render(<ManifestViewer initialPath="/meetings/reencoded/manifest.json" />);
    await screen.findByTestId('playback-refused');
    fireEvent.change(screen.getByLabelText(/Audio file path/), {
      target: { value: '/meetings/weekly/recording.opus' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check this audio' }));
    await screen.findByTestId('manifest-audio');
    const pick = calls.find((c) => c.method === 'chooseManifestAudio')!;
    expect(pick.payload).toMatchObject({ path: '/meetings/weekly/recording.opus' });
  });

  it('forgets a recent entry', async () => {
    render(<ManifestViewer />);
    fireEvent.click(
      await screen.findByRole('button', { name: 'Forget /meetings/old/manifest.json' }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Old meeting' })).toBeNull());
  });
});
