// Transcripts and readable renderings: a switcher naming each by role and source chain, search within
// the shown one, and, when playback is allowed and the transcript is timed, the current cue and word
// highlighted and kept in view, with a click on a cue or word seeking there. The cue list is
// virtualised: a meeting of several hours has thousands of cues, and only those near the viewport
// are in the DOM.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Cue, TranscriptView, TypedManifest } from '../../../shared/manifest';
import { formatClock } from './format';
import {
  activeCueIndex,
  activeWordIndex,
  highlightMatches,
  initialTranscript,
  roleName,
  searchCues,
  sourceChain,
  transcriptKey,
} from './timeline';

/** A one-line cue with its time button; rows are measured once rendered, this only places them first. */
const ESTIMATED_CUE_PX = 40;

export interface TranscriptPanelProps {
  views: TranscriptView[];
  manifest?: TypedManifest;
  /** Playback allowed (integrity verified): cues are seek points and follow the audio. */
  synced: boolean;
  currentMs: number;
  onSeek(ms: number): void;
}

export function TranscriptPanel({
  views,
  manifest,
  synced,
  currentMs,
  onSeek,
}: TranscriptPanelProps) {
  const [selectedKey, setSelectedKey] = useState(() => {
    const first = initialTranscript(views);
    return first ? transcriptKey(first) : '';
  });
  const [query, setQuery] = useState('');
  const view = views.find((v) => transcriptKey(v) === selectedKey) ?? views[0];

  const speakerLabels = useMemo(
    () => new Map((manifest?.speakers ?? []).map((s) => [s.id, s.label])),
    [manifest],
  );
  const sources = useMemo(() => {
    const map = new Map<string, string>();
    for (const t of manifest?.transcripts ?? []) {
      if (t.sourceTranscriptId !== undefined) map.set(t.id, t.sourceTranscriptId);
    }
    return map;
  }, [manifest]);
  const label = useCallback(
    (cue: Cue) =>
      cue.speakerId !== undefined ? (speakerLabels.get(cue.speakerId) ?? cue.speakerId) : cue.voice,
    [speakerLabels],
  );
  const roleOf = useMemo(
    () => new Map((manifest?.transcripts ?? []).map((t) => [t.id, t.role as string])),
    [manifest],
  );

  if (!view) {
    return (
      <section aria-label="Transcript" className="manifest-transcript">
        <p className="manifest-muted">No transcripts could be read.</p>
      </section>
    );
  }

  const entry =
    view.list === 'readableTranscripts'
      ? manifest?.readableTranscripts?.[view.index]
      : manifest?.transcripts[view.index];
  const directSource = entry?.sourceTranscriptId;
  const chain = directSource
    ? (() => {
        const rest = sourceChain(directSource, (id) => sources.get(id));
        return { ids: [directSource, ...rest.ids], broken: rest.broken };
      })()
    : { ids: [], broken: null };

  return (
    <section aria-label="Transcript" className="manifest-transcript">
      <div className="manifest-transcript-bar">
        <label>
          Show{' '}
          <select
            value={transcriptKey(view)}
            onChange={(e) => setSelectedKey(e.target.value)}
            aria-label="Transcript or rendering"
          >
            <optgroup label="Transcripts">
              {views
                .filter((v) => v.list === 'transcripts')
                .map((v) => (
                  <option key={transcriptKey(v)} value={transcriptKey(v)}>
                    {optionLabel(v)}
                  </option>
                ))}
            </optgroup>
            {views.some((v) => v.list === 'readableTranscripts') && (
              <optgroup label="Readable renderings">
                {views
                  .filter((v) => v.list === 'readableTranscripts')
                  .map((v) => (
                    <option key={transcriptKey(v)} value={transcriptKey(v)}>
                      {optionLabel(v)}
                    </option>
                  ))}
              </optgroup>
            )}
          </select>
        </label>
        <label>
          Search{' '}
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Find in transcript"
            aria-label="Search in transcript"
          />
        </label>
      </div>
      <p className="manifest-transcript-about" data-testid="transcript-about">
        <strong>{roleName(view.role)}</strong> · <code>{view.id}</code> · {view.format}
        {view.language !== undefined && <> · {view.language}</>}
        {view.isDefault && <> · default</>}
        {chain.ids.length > 0 && (
          <>
            {' '}
            · from{' '}
            {chain.ids.map((id, i) => (
              <span key={id}>
                {i > 0 && ' ← '}
                <code>{id}</code> ({roleName(roleOf.get(id))})
              </span>
            ))}
            {chain.broken && <> ({chain.broken})</>}
          </>
        )}
      </p>
      <TranscriptBody
        key={transcriptKey(view)}
        view={view}
        query={query}
        label={label}
        synced={synced && view.timed}
        currentMs={currentMs}
        onSeek={onSeek}
      />
    </section>
  );
}

function optionLabel(v: TranscriptView): string {
  const parts = [v.id, roleName(v.role)];
  if (v.language) parts.push(v.language);
  if (v.isDefault) parts.push('default');
  if (v.status === 'unsupported-format') parts.push('format not supported');
  else if (v.status !== 'parsed') parts.push(v.status);
  else if (!v.timed) parts.push('untimed');
  return parts.join(' · ');
}

function TranscriptBody({
  view,
  query,
  label,
  synced,
  currentMs,
  onSeek,
}: {
  view: TranscriptView;
  query: string;
  label: (cue: Cue) => string | undefined;
  synced: boolean;
  currentMs: number;
  onSeek(ms: number): void;
}) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const active = synced ? activeCueIndex(view.cues, currentMs) : -1;
  const activeWord = active >= 0 ? activeWordIndex(view.cues[active], currentMs) : -1;
  const shown = useMemo(() => searchCues(view.cues, query, label), [view.cues, query, label]);
  const needle = query.trim();
  // Row of the spoken cue in the shown list (which is in cue order); -1 when a search hides it.
  const activeRow = active >= 0 ? sortedIndexOf(shown, active) : -1;

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CUE_PX,
    overscan: 8,
    getItemKey: (row) => shown[row],
    initialRect: { width: 600, height: 600 },
  });

  // Keep the spoken cue in view while playing or after a seek (not while the user reads elsewhere
  // with the audio paused). The row may not be rendered yet, so the virtualizer scrolls to it.
  useEffect(() => {
    if (activeRow >= 0) virtualizer.scrollToIndex(activeRow, { align: 'auto' });
  }, [activeRow, virtualizer]);

  if (view.status === 'unsupported-format') {
    return (
      <p className="manifest-muted" role="note">
        Format not supported: <code>{view.format}</code>. The transcript is listed but cannot be
        shown.
      </p>
    );
  }
  if (view.status !== 'parsed') {
    return (
      <p className="manifest-error" role="note">
        This transcript cannot be shown ({view.status}): {view.reason}
      </p>
    );
  }
  return (
    <>
      {!view.timed && (
        <p className="manifest-muted" role="note">
          Untimed text: shown without synchronisation to the audio.
        </p>
      )}
      {view.timed && !synced && (
        <p className="manifest-muted" role="note">
          The transcript follows the audio only once the audio is verified.
        </p>
      )}
      {needle !== '' && (
        <p className="manifest-muted" aria-live="polite" data-testid="search-count">
          {shown.length} of {view.cues.length} cues match
        </p>
      )}
      <div ref={scrollRef} className="manifest-cues-scroll" data-testid="cues-scroll">
        <ol
          className="manifest-cues"
          aria-label="Cues"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const i = shown[item.index];
            return (
              <CueRow
                key={i}
                row={item.index}
                rows={shown.length}
                top={item.start}
                measure={virtualizer.measureElement}
                cue={view.cues[i]}
                timed={view.timed}
                synced={synced}
                active={i === active}
                activeWord={i === active ? activeWord : -1}
                speaker={label(view.cues[i])}
                needle={needle}
                onSeek={onSeek}
              />
            );
          })}
        </ol>
      </div>
    </>
  );
}

/** Position of `value` in an ascending list, or -1. */
function sortedIndexOf(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === value) return mid;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Text with the search matches marked (<mark>, as text nodes: never HTML). */
function Highlighted({ text, needle }: { text: string; needle: string }) {
  if (!needle) return <>{text}</>;
  return (
    <>
      {highlightMatches(text, needle).map((part, k) =>
        part.match ? <mark key={k}>{part.text}</mark> : part.text,
      )}
    </>
  );
}

/**
 * One cue. Memoised: during playback the panel re-renders many times a second, and only the rows
 * whose highlighting changed should re-render (a long meeting has thousands of word spans).
 */
const CueRow = memo(function CueRow({
  row,
  rows,
  top,
  measure,
  cue,
  timed,
  synced,
  active,
  activeWord,
  speaker,
  needle,
  onSeek,
}: {
  row: number;
  rows: number;
  top: number;
  measure: (element: HTMLLIElement | null) => void;
  cue: Cue;
  timed: boolean;
  synced: boolean;
  active: boolean;
  activeWord: number;
  speaker: string | undefined;
  needle: string;
  onSeek(ms: number): void;
}) {
  return (
    <li
      ref={measure}
      data-index={row}
      aria-posinset={row + 1}
      aria-setsize={rows}
      style={{ transform: `translateY(${top}px)` }}
      className={active ? 'manifest-cue manifest-cue-active' : 'manifest-cue'}
      aria-current={active ? 'true' : undefined}
      data-start-ms={timed ? cue.startMs : undefined}
      onClick={synced ? () => onSeek(cue.startMs) : undefined}
    >
      {timed && (
        <button
          type="button"
          className="manifest-cue-time"
          disabled={!synced}
          onClick={(e) => {
            e.stopPropagation();
            onSeek(cue.startMs);
          }}
          aria-label={`Play from ${formatClock(cue.startMs)}`}
        >
          {formatClock(cue.startMs)}
        </button>
      )}
      {speaker !== undefined && (
        <span className="manifest-cue-speaker">
          <Highlighted text={speaker} needle={needle} />
        </span>
      )}
      <span className="manifest-cue-text">
        {cue.words && cue.words.length > 0 ? (
          cue.words.map((word, w) => (
            <span
              key={w}
              className={w === activeWord ? 'manifest-word manifest-word-active' : 'manifest-word'}
              onClick={
                synced
                  ? (e) => {
                      e.stopPropagation();
                      onSeek(word.startMs);
                    }
                  : undefined
              }
            >
              <Highlighted text={word.text} needle={needle} />{' '}
            </span>
          ))
        ) : (
          <Highlighted text={cue.text} needle={needle} />
        )}
      </span>
    </li>
  );
});
