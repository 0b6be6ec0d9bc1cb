// The smaller panels: chapters (seek points), attachments (save), provenance (every kind, known or
// not, as text).
import type { ManifestAttachmentInfo } from '../../../shared/ipc/manifest';
import type { TypedManifest } from '../../../shared/manifest';
// The module itself, not the package index: the renderer needs no decoder (zod schemas) for this.
import { displayableChapters, type DisplayChapter } from '../../../shared/manifest/chapters';
import { formatClock } from './format';

/** Chapters the viewer can show: items with a string title and an integer startMs (decisions §6). */
export function chaptersOf(manifest?: TypedManifest): DisplayChapter[] {
  return displayableChapters(manifest?.chapters);
}

export function ChaptersPanel({
  chapters,
  synced,
  currentMs,
  onSeek,
}: {
  chapters: DisplayChapter[];
  synced: boolean;
  currentMs: number;
  onSeek(ms: number): void;
}) {
  if (chapters.length === 0) return null;
  let current = -1;
  if (synced) chapters.forEach((c, i) => c.startMs <= currentMs && (current = i));
  return (
    <nav aria-label="Chapters" className="manifest-chapters">
      <h3>Chapters</h3>
      <ol>
        {chapters.map((c, i) => (
          <li key={i} aria-current={i === current ? 'true' : undefined}>
            <button type="button" disabled={!synced} onClick={() => onSeek(c.startMs)}>
              <span className="manifest-chapter-time">{formatClock(c.startMs)}</span> {c.title}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function AttachmentsPanel({
  attachments,
  onSave,
}: {
  attachments: ManifestAttachmentInfo[];
  onSave(index: number): void;
}) {
  if (attachments.length === 0) return null;
  return (
    <section aria-label="Attachments" className="manifest-attachments">
      <h3>Attachments</h3>
      <ul>
        {attachments.map((a) => (
          <li key={a.index}>
            <strong>{a.name}</strong> <span className="manifest-muted">{a.mime}</span>{' '}
            {a.byteLength === null ? (
              <span className="manifest-error">not valid base64</span>
            ) : (
              <>
                <span className="manifest-muted">{a.byteLength} bytes</span>{' '}
                <button type="button" onClick={() => onSave(a.index)}>
                  Save…
                </button>
              </>
            )}
            {a.textPreview !== null && <pre className="manifest-preview">{a.textPreview}</pre>}
          </li>
        ))}
      </ul>
    </section>
  );
}

const PROVENANCE_NAMES: Record<string, string> = {
  speechToText: 'Speech to text',
  readableCleanup: 'Readable cleanup',
  displayTranscript: 'Display transcript',
  meetingSummary: 'Meeting summary',
  attribution: 'Speaker attribution',
  wordTimings: 'Word timings',
};

export function ProvenancePanel({ provenance }: { provenance: unknown }) {
  if (typeof provenance !== 'object' || provenance === null) return null;
  const entries = Object.entries(provenance);
  if (entries.length === 0) return null;
  return (
    <section aria-label="Provenance" className="manifest-provenance">
      <h3>Provenance</h3>
      <dl>
        {entries.map(([kind, value]) => {
          // Own members only: an unknown kind may be called "constructor" or "toString".
          const known = Object.hasOwn(PROVENANCE_NAMES, kind);
          return (
            <div key={kind}>
              <dt>
                {known ? PROVENANCE_NAMES[kind] : kind}
                {!known && <span className="manifest-muted"> (other kind)</span>}
              </dt>
              <dd>
                <JsonValue value={value} depth={0} />
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

/** Any JSON as nested lists of text (never HTML), cut off below a few levels. */
function JsonValue({ value, depth }: { value: unknown; depth: number }) {
  if (value === null || typeof value !== 'object') return <code>{JSON.stringify(value)}</code>;
  if (depth >= 5) return <code>…</code>;
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  if (entries.length === 0) return <code>{Array.isArray(value) ? '[]' : '{}'}</code>;
  return (
    <ul className="manifest-json">
      {entries.map(([key, v]) => (
        <li key={key}>
          <span className="manifest-json-key">{key}</span>:{' '}
          <JsonValue value={v} depth={depth + 1} />
        </li>
      ))}
    </ul>
  );
}
