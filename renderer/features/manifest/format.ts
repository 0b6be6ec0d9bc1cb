// How the viewer writes times. The manifest's instants (createdAtUtc, processedAtUtc) are shown in the
// user's time zone; recordedAtLocal is the recording site's wall clock with no offset, so it is shown
// as written and never converted (it is a label, not an instant).

/** 83_456 -> "1:23", 3_723_000 -> "1:02:03". */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// The meeting card and a shared meeting's message write durations the same way (shared/manifest).
export { formatDuration } from '../../../shared/manifest/duration';

/** A UTC instant in the user's zone, with the zone named. */
export function formatInstant(utc: string, timeZone?: string): string {
  const date = new Date(utc);
  if (Number.isNaN(date.getTime())) return utc;
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone,
  }).format(date);
}

/** "2026-11-20T10:00:00" -> "2026-11-20 10:00:00": the label as written, never shifted. */
export function formatWallClockLabel(local: string): string {
  return local.replace('T', ' ');
}
