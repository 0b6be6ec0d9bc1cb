// The meeting's identity: title, when (the UTC instant in the user's zone beside the recording site's
// wall-clock label), duration, room, job and attempt, summary, and the speakers.
import type { TypedManifest } from '../../../shared/manifest';
import { formatDuration, formatInstant, formatWallClockLabel } from './format';

export function MeetingHeader({
  manifest,
  summaryText,
}: {
  manifest: TypedManifest;
  summaryText: string | null;
}) {
  const m = manifest.meeting;
  return (
    <header className="manifest-meeting">
      <h2>{m.title}</h2>
      <dl className="manifest-facts">
        <dt>Recorded</dt>
        <dd>
          <time dateTime={m.createdAtUtc} data-testid="meeting-instant">
            {formatInstant(m.createdAtUtc)}
          </time>
          <span className="manifest-muted"> (your time zone)</span>
          {m.recordedAtLocal !== undefined && (
            <span className="manifest-label" data-testid="meeting-local-label">
              {' '}
              · {formatWallClockLabel(m.recordedAtLocal)} on the recording site&apos;s clock (a
              label, no time zone)
            </span>
          )}
        </dd>
        <dt>Duration</dt>
        <dd>{formatDuration(m.durationMs)}</dd>
        {m.roomId !== undefined && (
          <>
            <dt>Room</dt>
            <dd>
              <code>{m.roomId}</code>
              {m.roomName !== undefined && <> ({m.roomName})</>}
            </dd>
          </>
        )}
        {m.roomId === undefined && m.roomName !== undefined && (
          <>
            <dt>Room</dt>
            <dd>{m.roomName}</dd>
          </>
        )}
        {(m.jobId !== undefined || m.attemptNumber !== undefined) && (
          <>
            <dt>Job</dt>
            <dd>
              {m.jobId !== undefined ? <code>{m.jobId}</code> : 'no job'}
              {m.attemptNumber !== undefined && <>, attempt {m.attemptNumber}</>}
            </dd>
          </>
        )}
        {m.language !== undefined && (
          <>
            <dt>Language</dt>
            <dd>{m.language}</dd>
          </>
        )}
        {m.processedAtUtc !== undefined && (
          <>
            <dt>Processed</dt>
            <dd>
              <time dateTime={m.processedAtUtc}>{formatInstant(m.processedAtUtc)}</time>
            </dd>
          </>
        )}
        <dt>Meeting id</dt>
        <dd>
          <code>{m.id}</code>
        </dd>
      </dl>
      {m.summary !== undefined && <p className="manifest-summary">{m.summary}</p>}
      {summaryText !== null && (
        <section aria-label="Summary">
          <h3>Summary</h3>
          <pre className="manifest-summary-text">{summaryText}</pre>
        </section>
      )}
      <section aria-label="Speakers" className="manifest-speakers">
        <h3>Speakers</h3>
        {manifest.speakers.length === 0 ? (
          <p className="manifest-muted">No speakers listed.</p>
        ) : (
          <ul>
            {manifest.speakers.map((s, i) => (
              // By position: speaker ids are not required to be unique.
              <li key={i}>
                {s.label} <span className="manifest-muted">({s.id})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </header>
  );
}
