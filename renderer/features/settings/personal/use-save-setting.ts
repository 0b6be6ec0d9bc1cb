// Saving one PATCH /settings value from a settings screen: the store changes only when the server's
// user_settings event comes back, and a refusal shows as the screen's alert.
import { useState } from 'react';
import { api, errorText } from '../../../bridge/api';

export function useSaveSetting(accountId: string) {
  const [error, setError] = useState<string | null>(null);
  /** Resolves whether the server accepted it. */
  const save = (name: string, value: boolean | number | string) =>
    api()
      .updateSettings({ accountId, settings: { [name]: value } })
      .then(() => {
        setError(null);
        return true;
      })
      .catch((e: unknown) => {
        setError(errorText(e));
        return false;
      });
  return { save, error, setError };
}
