// The settings forms on screen, so that leaving a section or closing Settings never drops work:
// `leaveSettings` first saves every pending change that can be sent, and only if something is
// still unsaved (a value the server refused or one that cannot be sent) asks "Discard changes?"
// through the question UnsavedChangesDialog shows. The settings frame calls it around every way
// out of a section.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

interface RegisteredForm {
  dirty(): boolean;
  /** Resolves whether nothing is left unsaved. */
  commit(): Promise<boolean>;
  /** The person chose to drop what is unsaved: leaving sends nothing more. */
  discard(): void;
}

const forms = new Set<RegisteredForm>();

export function registerSettingsForm(form: RegisteredForm): () => void {
  forms.add(form);
  return () => forms.delete(form);
}

/** Whether any settings form on screen holds a change the server does not have yet. */
export function hasUnsavedSettings(): boolean {
  return [...forms].some((form) => form.dirty());
}

/** Saves what can be saved; resolves whether every form is then clean. */
export async function saveUnsavedSettings(): Promise<boolean> {
  const results = await Promise.all([...forms].map((form) => form.commit()));
  return results.every(Boolean) && !hasUnsavedSettings();
}

/** The open "Discard changes?" question: what leaving would do, once the person agrees. */
export const leaveQuestion = createStore<{ proceed: (() => void) | null }>(() => ({
  proceed: null,
}));

export const useLeaveQuestion = () => useStore(leaveQuestion, (s) => s.proceed);

/** "Discard changes": every form on screen leaves without sending its unsaved values. */
export function discardUnsavedSettings(): void {
  for (const form of forms) form.discard();
}

/** Leave the current section (or Settings) once its changes are saved or the person discards them. */
export function leaveSettings(proceed: () => void): void {
  if (forms.size === 0) return proceed();
  void saveUnsavedSettings().then((clean) =>
    clean ? proceed() : leaveQuestion.setState({ proceed }),
  );
}
