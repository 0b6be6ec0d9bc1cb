// A whole-number setting edited as text and saved when the user is done (Enter or leaving the
// field), never per keystroke: typing "16" must not first send 1. A value outside the server's
// range is refused here with a message, before any request.
import { useId, useState } from 'react';

export function NumberSetting({
  label,
  value,
  range,
  unit,
  onSave,
}: {
  label: string;
  /** The saved value (follows the server's events). */
  value: number;
  range: { min: number; max: number };
  unit: string;
  /** Resolves true once the server accepted the value. */
  onSave: (value: number) => Promise<boolean>;
}) {
  // The text being typed; null while the field shows the saved value.
  const [text, setText] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  // A value sent and not yet back as a settings event: shown meanwhile instead of the old one.
  const [sent, setSent] = useState<number | null>(null);
  if (sent !== null && sent === value) setSent(null);
  const errorId = useId();
  const commit = () => {
    if (text === null) return;
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isInteger(n) || n < range.min || n > range.max) {
      setInvalid(`${label} must be a whole number from ${range.min} to ${range.max} ${unit}.`);
      return;
    }
    setInvalid(null);
    setText(null);
    if (n === value) return;
    setSent(n);
    void onSave(n).then((ok) => {
      if (!ok) setSent(null);
    });
  };
  return (
    <div className="number-setting">
      <label>
        {label} ({unit})
        <input
          type="number"
          min={range.min}
          max={range.max}
          step={1}
          value={text ?? String(sent ?? value)}
          aria-invalid={invalid !== null}
          aria-describedby={invalid ? errorId : undefined}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            } else if (e.key === 'Escape' && text !== null) {
              // Undo the edit; the field keeps focus and Esc goes no further.
              e.stopPropagation();
              setText(null);
              setInvalid(null);
            }
          }}
        />
      </label>
      {invalid ? (
        <p id={errorId} role="alert">
          {invalid}
        </p>
      ) : null}
    </div>
  );
}
