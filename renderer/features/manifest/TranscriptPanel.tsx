// Transcripts and readable renderings: a switcher naming each by role and source chain, search within
// the shown one, and, when playback is allowed and the transcript is timed, the current cue and word
// highlighted and kept in view, with a click on a cue or word seeking there.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Cue, TranscriptView, TypedManifest } from '../../../shared/manifest';
import { formatClock } from './format';
import {
  activeCueIndex,
  activeWordIndex,
  initialTranscript,
  roleName,
  searchCues,
  sourceChain,
  transcriptKey,
} from './timeline';

export interface TranscriptPanelProps {
  views: TranscriptView[];
  manifest?: TypedManifest;
  /** Playback allowed (integrity verified): cues are seek points and follow the audio. */
  synced: boolean;
  currentMs: number;
  playing: boolean;
  onSeek(ms: number): void;
}

export function TranscriptPanel({
  views,
  manifest,
  synced,
  currentMs,
  playing,
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
        playing={playing}
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
  playing,
  onSeek,
}: {
  view: TranscriptView;
  query: string;
  label: (cue: Cue) => string | undefined;
  synced: boolean;
  currentMs: number;
  playing: boolean;
  onSeek(ms: number): void;
}) {
  const activeRef = useRef<HTMLLIElement | null>(null);
  const active = synced ? activeCueIndex(view.cues, currentMs) : -1;
  const activeWord = active >= 0 ? activeWordIndex(view.cues[active], currentMs) : -1;
  const shown = useMemo(() => searchCues(view.cues, query, label), [view.cues, query, label]);

  // Keep the spoken cue in view while playing or after a seek (not while the user reads elsewhere
  // with the audio paused).
  useEffect(() => {
    if (active < 0) return;
    activeRef.current?.scrollIntoView?.({
      block: 'nearest',
      behavior: playing ? 'smooth' : 'auto',
    });
  }, [active, playing]);

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
      {query.trim() !== '' && (
        <p className="manifest-muted" aria-live="polite" data-testid="search-count">
          {shown.length} of {view.cues.length} cues match
        </p>
      )}
      <ol className="manifest-cues" aria-label="Cues">
        {shown.map((i) => (
          <CueRow
            key={i}
            cue={view.cues[i]}
            timed={view.timed}
            synced={synced}
            active={i === active}
            activeWord={i === active ? activeWord : -1}
            speaker={label(view.cues[i])}
            rowRef={i === active ? activeRef : undefined}
            onSeek={onSeek}
          />
        ))}
      </ol>
    </>
  );
}

/**
 * One cue. Memoised: during playback the panel re-renders many times a second, and only the rows
 * whose highlighting changed should re-render (a long meeting has thousands of word spans).
 */
const CueRow = memo(function CueRow({
  cue,
  timed,
  synced,
  active,
  activeWord,
  speaker,
  rowRef,
  onSeek,
}: {
  cue: Cue;
  timed: boolean;
  synced: boolean;
  active: boolean;
  activeWord: number;
  speaker: string | undefined;
  rowRef: React.RefObject<HTMLLIElement | null> | undefined;
  onSeek(ms: number): void;
}) {
  return (
    <li
      ref={rowRef}
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
      {speaker !== undefined && <span className="manifest-cue-speaker">{speaker}</span>}
      <span className="manifest-cue-text">
        {cue.words && cue.words.length > 0
          ? cue.words.map((word, w) => (
              <span
                key={w}
                className={
                  w === activeWord ? 'manifest-word manifest-word-active' : 'manifest-word'
                }
                onClick={
                  synced
                    ? (e) => {
                        e.stopPropagation();
                        onSeek(word.startMs);
                      }
                    : undefined
                }
              >
                {word.text}{' '}
              </span>
            ))
          : cue.text}
      </span>
    </li>
  );
});
