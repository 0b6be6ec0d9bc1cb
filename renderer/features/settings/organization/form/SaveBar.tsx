// The public web app's per-section save widget: "Save changes" and "Discard" while a section has
// unsaved edits, "Saved" after, the first problem blocking the save, and the server's refusal.
import type { FormValues, SettingsForm } from './use-settings-form';

export function SaveBar<T extends FormValues>({
  form,
  label,
}: {
  form: SettingsForm<T>;
  /** Names the section for assistive technology ("Save Message editing"). */
  label: string;
}) {
  const problem = Object.values(form.problems).find(Boolean) as string | undefined;
  return (
    <div className="org-save-bar" aria-live="polite">
      {form.dirty ? (
        <>
          <button
            type="button"
            className="primary"
            aria-label={`Save ${label}`}
            disabled={form.status === 'saving' || problem !== undefined}
            onClick={() => void form.save()}
          >
            {form.status === 'saving' ? 'Saving…' : 'Save changes'}
          </button>
          <button type="button" onClick={form.discard} aria-label={`Discard ${label}`}>
            Discard
          </button>
        </>
      ) : form.status === 'saved' ? (
        <span className="org-saved">Saved</span>
      ) : null}
      {form.dirty && problem ? <span className="org-problem">{problem}</span> : null}
      {form.refusal ? (
        <p role="alert" className="org-refusal">
          {form.refusal}
        </p>
      ) : null}
    </div>
  );
}
