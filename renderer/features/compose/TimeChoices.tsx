// The times offered for something the server does later (a scheduled message, a reminder): the
// web app's presets, then a date and time of one's own. `onChoose` gets UNIX seconds, or null when
// the custom field is malformed.
import { useState } from 'react';
import { clockNow, formatDate, formatTime, localDay } from '../../lib/format';
import {
  fromDatetimeLocal,
  schedulePresets,
  toDatetimeLocal,
  type SchedulePreset,
} from './schedule-times';

export function TimeChoices({
  busy,
  error,
  inputLabel,
  submitLabel,
  leadingPresets = [],
  onChoose,
}: {
  busy: boolean;
  error: string | null;
  /** The custom field's accessible name. */
  inputLabel: string;
  submitLabel: string;
  /** Offered before the web app's presets (a reminder also offers "In 1 hour"). */
  leadingPresets?: readonly SchedulePreset[];
  onChoose: (at: number | null) => void;
}) {
  const [custom, setCustom] = useState('');
  const now = new Date(clockNow());
  return (
    <>
      {[...leadingPresets, ...schedulePresets(now)].map((preset) => (
        <button
          key={preset.label}
          type="button"
          disabled={busy}
          onClick={() => onChoose(preset.at)}
        >
          {preset.label}
          <span className="muted">
            {' · '}
            {localDay(preset.at) === localDay(now.getTime() / 1000)
              ? formatTime(preset.at)
              : formatDate(preset.at)}
          </span>
        </button>
      ))}
      <label>
        <span>Custom time</span>
        <input
          type="datetime-local"
          aria-label={inputLabel}
          value={custom}
          min={toDatetimeLocal(Math.floor(now.getTime() / 1000))}
          onChange={(e) => setCustom(e.target.value)}
        />
      </label>
      <button
        type="button"
        disabled={busy || !custom}
        onClick={() => onChoose(fromDatetimeLocal(custom))}
      >
        {submitLabel}
      </button>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </>
  );
}
