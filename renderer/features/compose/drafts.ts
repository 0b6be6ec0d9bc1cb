// Drafts are kept by main (on disk, synced with the server). Compose finds the draft of the
// conversation it shows, and saves as the user types.
import type { DraftBody, LocalDraft } from '../../../shared/ipc/drafts';
import type { ComposeDestination } from '../../store/ui-store';

export type Destination = ComposeDestination;

export function draftBodyFor(dest: Destination | null, content: string): DraftBody {
  if (!dest) return { type: '', to: [], topic: '', content };
  if (dest.type === 'stream')
    return { type: 'stream', to: [dest.streamId], topic: dest.topic, content };
  return { type: 'private', to: [...dest.to].sort((a, b) => a - b), topic: '', content };
}

export function sameDestination(draft: DraftBody, dest: Destination | null): boolean {
  if (!dest) return draft.type === '';
  if (dest.type === 'stream')
    return (
      draft.type === 'stream' &&
      draft.to[0] === dest.streamId &&
      draft.topic.toLowerCase() === dest.topic.toLowerCase()
    );
  if (draft.type !== 'private') return false;
  const a = [...draft.to].sort((x, y) => x - y).join();
  const b = [...dest.to].sort((x, y) => x - y).join();
  return a === b;
}

export function findDraft(
  drafts: readonly LocalDraft[],
  dest: Destination | null,
): LocalDraft | undefined {
  let best: LocalDraft | undefined;
  for (const d of drafts) {
    if (sameDestination(d.draft, dest) && (!best || d.timestamp > best.timestamp)) best = d;
  }
  return best;
}
