// One request at a time from an administration screen, with its outcome on screen: the check that
// refused it before sending, the server's refusal, or a short confirmation.
import { useCallback, useState } from 'react';
import { errorText } from '../../../bridge/api';

export interface AdminAction {
  busy: boolean;
  error: string | null;
  done: string | null;
  run(request: Promise<unknown>, done?: string): void;
  fail(message: string): void;
}

export function useAdminAction(): AdminAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = useCallback((request: Promise<unknown>, message?: string) => {
    setBusy(true);
    setError(null);
    setDone(null);
    request.then(
      () => {
        setBusy(false);
        setDone(message ?? null);
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorText(e));
      },
    );
  }, []);
  const fail = useCallback((message: string) => {
    setDone(null);
    setError(message);
  }, []);
  return { busy, error, done, run, fail };
}

export function StatusLine({ action }: { action: AdminAction }) {
  if (action.error)
    return (
      <p role="alert" className="error">
        {action.error}
      </p>
    );
  if (action.done)
    return (
      <p role="status" className="success">
        {action.done}
      </p>
    );
  return null;
}

/**
 * A text field's value that follows the server's until the person edits it (so another window's
 * change shows), and follows it again after `reset` (a save, whose event brings the new value).
 */
export function useDraft(serverValue: string): [string, (value: string) => void, () => void] {
  const [draft, setDraft] = useState<string | null>(null);
  const reset = useCallback(() => setDraft(null), []);
  return [draft ?? serverValue, setDraft, reset];
}
