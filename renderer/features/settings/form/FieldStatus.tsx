// What a settings field says beside it under the save-at-once rule (use-settings-form.ts):
// "Saving…", "Saved", why its value cannot be sent, or the server's refusal in its own words.
import { Check } from 'lucide-react';
import type { FormValues, SettingsForm } from './use-settings-form';

export function FieldStatus<T extends FormValues>({
  form,
  name,
}: {
  form: SettingsForm<T>;
  name: keyof T;
}) {
  const state = form.field(name);
  if (state.problem) {
    return (
      <span
        role="alert"
        className={state.refused ? 'field-status refused' : 'field-status problem'}
      >
        {state.problem}
      </span>
    );
  }
  if (state.status === 'saving') {
    return (
      <span role="status" className="field-status saving">
        Saving…
      </span>
    );
  }
  if (state.status === 'saved') {
    return (
      <span role="status" className="field-status saved">
        <Check size={14} aria-hidden="true" /> Saved
      </span>
    );
  }
  return null;
}

/** Typed digits become a number; anything else stays text, for validation to flag. */
const typedNumber = (text: string): number | string =>
  text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text;

/** Props for a whole-number field under the rule (see textFieldProps). */
export function numberFieldProps<T extends FormValues>(
  form: SettingsForm<T>,
  name: keyof T & string,
) {
  const props = textFieldProps(form, name);
  return {
    ...props,
    onChange: (e: { target: { value: string } }) =>
      form.edit(name, typedNumber(e.target.value) as T[typeof name]),
  };
}

/** Why a typed whole number cannot be sent, or undefined. */
export function rangeProblem(
  label: string,
  value: unknown,
  range: { min: number; max: number },
  unit = '',
): string | undefined {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= range.min &&
    value <= range.max
    ? undefined
    : `${label} must be a whole number from ${range.min} to ${range.max}${unit ? ` ${unit}` : ''}.`;
}

/**
 * Props for a text field under the rule: typing edits, leaving the field or Enter saves, Esc
 * goes back to the saved value (and goes no further while there was an edit).
 */
export function textFieldProps<T extends FormValues>(
  form: SettingsForm<T>,
  name: keyof T & string,
  { multiline = false }: { multiline?: boolean } = {},
) {
  const state = form.field(name);
  return {
    value: String(form.values[name] ?? ''),
    'aria-invalid': state.problem ? true : undefined,
    onChange: (e: { target: { value: string } }) =>
      form.edit(name, e.target.value as T[typeof name]),
    onBlur: () => void form.commit(),
    onKeyDown: (e: { key: string; preventDefault(): void; stopPropagation(): void }) => {
      if (e.key === 'Enter' && !multiline) {
        e.preventDefault();
        void form.commit();
      } else if (e.key === 'Escape' && name in form.pending) {
        e.stopPropagation();
        form.revert(name);
      }
    },
  };
}
