// The personal screens' form over the user's settings (PATCH /settings) under the settings rule
// (../form/use-settings-form.ts): each value is saved as soon as it is chosen or typed, and the
// store changes only when the server's user_settings event comes back.
import type { UserSettings } from '../../../../shared/api/types';
import { api } from '../../../bridge/api';
import { useSettingsForm, type SettingsForm } from '../form/use-settings-form';

export type UserSettingsForm = SettingsForm<Record<string, unknown>>;

export function useUserSettingsForm(
  accountId: string,
  saved: UserSettings | Record<string, unknown>,
  validate?: (values: Record<string, unknown>) => Record<string, string | undefined>,
): UserSettingsForm {
  return useSettingsForm(saved as Record<string, unknown>, {
    validate,
    send: (changes) =>
      api().updateSettings({
        accountId,
        settings: changes as Record<string, boolean | number | string>,
      }),
  });
}
