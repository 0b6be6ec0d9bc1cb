// The meeting card under a message that links a meeting manifest (docs/meeting-messages.md): title,
// date, duration, speakers, transcript languages, the verdict once the meeting was opened (the
// viewer's own verdict, shared/manifest/verdict.ts), what the message does not link, and "Open in
// meeting viewer". Main reads the message's `.json` uploads only once the row comes into view.
import { useEffect, useReducer, useRef, useState } from 'react';
import type { MeetingCardInfo, MeetingProbe } from '../../../shared/ipc/meetings';
// From their own modules, not the manifest barrel: every message list renders cards, and the barrel
// would bring the manifest decoder's schemas (zod) into the app's first script.
import { manifestVerdict } from '../../../shared/manifest/verdict';
import { UNNAMED_AUDIO } from '../../../shared/manifest/message-files';
import { navigate } from '../../store/ui-store';
import { formatClock } from '../manifest/format';
import { onProbesForgotten, probeMeetings } from './meeting-probes';
import './meetings.css';

const SHORT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The meeting's start in the reader's zone, short (the viewer shows it in full). */
function shortInstant(utc: string): string {
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? utc : SHORT.format(date);
}

export function MeetingCards({ accountId, paths }: { accountId: string; paths: string[] }) {
  const anchor = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  const [probe, setProbe] = useState<MeetingProbe | null>(null);
  const [generation, forgotten] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    const element = anchor.current;
    if (!element || visible) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setVisible(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);

  useEffect(() => onProbesForgotten(forgotten), []);

  useEffect(() => {
    if (!visible) return;
    let live = true;
    probeMeetings(accountId, paths).then(
      (answer) => live && setProbe(answer),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [visible, accountId, paths, generation]);

  return (
    <div ref={anchor} className="meeting-cards">
      {probe?.meetings.map((meeting) => (
        <MeetingCard
          key={meeting.manifestPath}
          accountId={accountId}
          paths={paths}
          meeting={meeting}
        />
      ))}
    </div>
  );
}

function MeetingCard({
  accountId,
  paths,
  meeting,
}: {
  accountId: string;
  paths: string[];
  meeting: MeetingCardInfo;
}) {
  const { summary, verdict, decodeErrors } = meeting;
  const title = summary.title ?? meeting.manifestName;
  const facts = [
    summary.createdAtUtc ? shortInstant(summary.createdAtUtc) : null,
    summary.durationMs !== null ? formatClock(summary.durationMs) : null,
  ].filter((fact): fact is string => fact !== null);
  // Known once opened; before that only the manifest's own errors are (the audio is not read yet).
  const shown = verdict
    ? manifestVerdict(verdict)
    : decodeErrors.length > 0
      ? manifestVerdict({ valid: false, errors: decodeErrors })
      : null;
  const missing = meeting.missing.map((name) =>
    name === UNNAMED_AUDIO ? 'the recording (no .opus or .ogg file)' : name,
  );
  return (
    <section className="meeting-card" aria-label={`Meeting: ${title}`} data-testid="meeting-card">
      <div className="meeting-card-title">
        <span className="meeting-card-icon" aria-hidden="true">
          ▶
        </span>
        <strong>{title}</strong>
        {facts.length > 0 && <span className="meeting-card-facts">{facts.join(' · ')}</span>}
      </div>
      {summary.speakers.length > 0 && (
        <div className="meeting-card-line">
          <span className="meeting-card-label">Speakers</span> {summary.speakers.join(', ')}
        </div>
      )}
      {summary.languages.length > 0 && (
        <div className="meeting-card-line">
          <span className="meeting-card-label">Transcripts</span> {summary.languages.join(', ')}
        </div>
      )}
      <div
        className={`meeting-card-verdict meeting-tone-${shown?.tone ?? 'neutral'}`}
        data-testid="meeting-card-verdict"
        title={shown?.detail}
      >
        {shown
          ? shown.title
          : 'Not checked yet: opening it downloads the files and checks the recording.'}
      </div>
      {missing.length > 0 && (
        <div className="meeting-card-problem" data-testid="meeting-card-missing">
          Not linked in this message: {missing.join(', ')}
        </div>
      )}
      {meeting.ambiguous.length > 0 && (
        <div className="meeting-card-problem">
          Linked as two different files, so neither is used: {meeting.ambiguous.join(', ')}
        </div>
      )}
      <button
        type="button"
        className="meeting-card-open"
        onClick={() =>
          navigate({
            kind: 'manifest',
            meeting: { accountId, manifestPath: meeting.manifestPath, paths, title },
          })
        }
      >
        Open in meeting viewer
      </button>
    </section>
  );
}
