// A whole-number setting edited as text and saved when the person is done (Enter or leaving the
// field), never per keystroke: typing "16" must not first send 1. A value outside the server's
// range is flagged beside the field (the form's validate uses rangeProblem) and not sent.
import { FieldStatus, numberFieldProps } from './form/FieldStatus';
import type { SettingsForm } from './form/use-settings-form';

export function NumberSetting({
  label,
  unit,
  range,
  form,
  name,
}: {
  label: string;
  unit: string;
  range: { min: number; max: number };
  form: SettingsForm<Record<string, unknown>>;
  name: string;
}) {
  return (
    <div className="number-setting">
      <label>
        {label} ({unit})
        <input
          type="number"
          min={range.min}
          max={range.max}
          step={1}
          {...numberFieldProps(form, name)}
        />
      </label>
      <FieldStatus form={form} name={name} />
    </div>
  );
}
