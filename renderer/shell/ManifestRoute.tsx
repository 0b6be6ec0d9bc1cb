// The meeting-manifest viewer's slot. The viewer is its own feature (renderer/features/manifest);
// it is loaded lazily when present, and this route shows nothing while it does not exist.
import { lazy, Suspense, type ComponentType } from 'react';
import type { MeetingRef } from '../../shared/ipc/meetings';

type Viewer = ComponentType<{ initialPath?: string; meeting?: MeetingRef }>;

const candidates = import.meta.glob<{ default: Viewer }>('../features/manifest/ManifestViewer.tsx');
const loader = Object.values(candidates)[0];
const LazyViewer = loader ? lazy(loader) : null;

export function ManifestRoute({ path, meeting }: { path?: string; meeting?: MeetingRef }) {
  if (!LazyViewer) return null;
  return (
    <Suspense fallback={<p className="placeholder">Loading the manifest viewer…</p>}>
      <LazyViewer initialPath={path} meeting={meeting} />
    </Suspense>
  );
}
