// One personal setting chosen from a fixed list (a <select>): only a listed value is ever sent, at
// once, with its save status beside it.
import { useId } from 'react';
import type { Choice } from './preference-options';
import { FieldStatus } from '../form/FieldStatus';
import type { UserSettingsForm } from './use-user-settings-form';

export function ChoiceSetting<V extends string | number>({
  label,
  choices,
  form,
  name,
  fallback,
  hint,
  codec,
}: {
  label: string;
  choices: Choice<V>[];
  form: UserSettingsForm;
  /** The setting's name in PATCH /settings. */
  name: string;
  /** Shown when the server leaves the setting out (older feature levels). */
  fallback: V;
  hint?: string;
  /** For a setting stored otherwise than as its choice's value (24-hour time: a boolean). */
  codec?: { read: (saved: unknown) => V; write: (choice: V) => boolean | number | string };
}) {
  const saved = form.values[name];
  const hintId = useId();
  return (
    <>
      <label className="choice-setting">
        <span className="setting-label">{label}</span>
        <select
          value={String(codec ? codec.read(saved) : (saved ?? fallback))}
          aria-describedby={hint ? hintId : undefined}
          onChange={(e) => {
            const picked = choices.find((c) => String(c.value) === e.target.value);
            if (picked) form.set(name, codec ? codec.write(picked.value) : picked.value);
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
      <FieldStatus form={form} name={name} />
    </>
  );
}
