// A time limit as the public web app offers it: "Any time" (no limit), a few presets, or a custom
// number of minutes. The value is seconds, or null for no limit. A preset is saved when chosen,
// custom minutes when the field is left or Enter is pressed (docs/settings.md).
import { useState, type ReactNode } from 'react';

const PRESETS: ReadonlyArray<[number | null, string]> = [
  [null, 'Any time'],
  [120, '2 minutes'],
  [600, '10 minutes'],
  [3600, '1 hour'],
  [86400, '1 day'],
  [604800, '1 week'],
];

export function TimeLimitField({
  label,
  value,
  disabled,
  onChoose,
  onType,
  onDone,
  status,
}: {
  label: string;
  value: number | null;
  disabled?: boolean;
  /** A preset was chosen: save it. */
  onChoose: (value: number | null) => void;
  /** Custom minutes being typed. */
  onType: (value: number) => void;
  /** The custom minutes are finished: save them. */
  onDone: () => void;
  status?: ReactNode;
}) {
  const preset = PRESETS.some(([v]) => v === value);
  const [custom, setCustom] = useState(!preset);
  const [minutes, setMinutes] = useState(value === null ? '' : String(Math.round(value / 60)));
  return (
    <div>
      <label className="org-field">
        <span>{label}</span>
        <select
          value={custom ? 'custom' : String(value)}
          disabled={disabled}
          onChange={(e) => {
            if (e.target.value === 'custom') {
              setCustom(true);
              return;
            }
            setCustom(false);
            onChoose(e.target.value === 'null' ? null : Number(e.target.value));
          }}
        >
          {PRESETS.map(([v, text]) => (
            <option key={String(v)} value={String(v)}>
              {text}
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
      </label>
      {custom ? null : status}
      {custom ? (
        <>
          <label className="org-field">
            <span>Custom time limit (minutes)</span>
            <input
              inputMode="numeric"
              value={minutes}
              disabled={disabled}
              onChange={(e) => {
                setMinutes(e.target.value);
                const n = Number(e.target.value);
                // Anything but a positive whole number is kept as typed and flagged by validation.
                onType(Number.isInteger(n) && n > 0 ? n * 60 : Number.NaN);
              }}
              onBlur={onDone}
              onKeyDown={(e) => {
                if (e.key === 'Enter') onDone();
              }}
            />
          </label>
          {status}
        </>
      ) : null}
    </div>
  );
}

/** Why a time limit cannot be sent, or undefined. */
export function timeLimitProblem(label: string, value: number | null): string | undefined {
  if (value === null) return undefined;
  return Number.isInteger(value) && value > 0
    ? undefined
    : `${label}: enter a positive whole number of minutes.`;
}
