// One personal setting chosen from a fixed list (a <select>): only a listed value is ever sent.
import { useId } from 'react';
import type { Choice } from './preference-options';

export function ChoiceSetting<V extends string | number>({
  label,
  choices,
  value,
  onSave,
  hint,
}: {
  label: string;
  choices: Choice<V>[];
  value: V;
  onSave: (value: V) => void;
  hint?: string;
}) {
  const hintId = useId();
  return (
    <label className="choice-setting">
      <span className="setting-label">{label}</span>
      <select
        value={String(value)}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => {
          const picked = choices.find((c) => String(c.value) === e.target.value);
          if (picked) onSave(picked.value);
        }}
      >
        {choices.map((c) => (
          <option key={String(c.value)} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </select>
      {hint ? (
        <span id={hintId} className="setting-hint">
          {hint}
        </span>
      ) : null}
    </label>
  );
}
