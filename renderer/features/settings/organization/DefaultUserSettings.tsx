// Default settings for new users (PATCH /realm/user_settings_defaults), grouped as the public web
// app's organization panel: display, notifications, and navigation/topics/privacy. Existing users
// keep their own settings. Everyone sees the defaults; administrators change them. Each control
// offers only the values the server allows, and numbers out of range are refused before sending.
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import {
  DEFAULTS_GROUP_TITLES,
  NOTIFICATION_MATRIX,
  USER_DEFAULT_SETTINGS,
  defaultValueProblem,
  type DefaultSetting,
  type DefaultsGroup,
} from '../../../../shared/admin/user-defaults';
import { useSettingsForm, type SettingsForm } from '../form/use-settings-form';
import { FieldStatus, numberFieldProps } from '../form/FieldStatus';
import { CheckboxField } from './form/fields';
import { isAdminAccount } from './form/permissions';

type Values = Record<string, unknown>;

function SettingControl({
  setting,
  form,
  disabled,
}: {
  setting: DefaultSetting;
  form: SettingsForm<Values>;
  disabled: boolean;
}) {
  const value = form.values[setting.name];
  const status = <FieldStatus form={form} name={setting.name} />;
  switch (setting.kind) {
    case 'bool':
      return (
        <CheckboxField
          label={setting.label}
          checked={value === true}
          disabled={disabled}
          onChange={(v) => form.set(setting.name, v)}
          status={status}
        />
      );
    case 'range':
      return (
        <>
          <label className="org-field">
            <span>{setting.label}</span>
            <input
              inputMode="numeric"
              disabled={disabled}
              {...numberFieldProps(form, setting.name)}
            />
            <span className="org-hint">
              {setting.min}–{setting.max}
            </span>
          </label>
          {status}
        </>
      );
    case 'int-choice':
    case 'string-choice': {
      const options: ReadonlyArray<[number | string, string]> = setting.options;
      return (
        <>
          <label className="org-field">
            <span>{setting.label}</span>
            <select
              value={String(value)}
              disabled={disabled}
              onChange={(e) =>
                form.set(
                  setting.name,
                  setting.kind === 'int-choice' ? Number(e.target.value) : e.target.value,
                )
              }
            >
              {options.map(([v, text]) => (
                <option key={v} value={v}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          {status}
        </>
      );
    }
  }
}

const IN_MATRIX = new Set(NOTIFICATION_MATRIX.rows.flatMap(([, names]) => names));

/** The notification settings laid out as the public app's table of checkboxes. */
function NotificationMatrix({ form, disabled }: { form: SettingsForm<Values>; disabled: boolean }) {
  const labelOf = (name: string) => USER_DEFAULT_SETTINGS.find((s) => s.name === name)?.label;
  return (
    <table className="org-table org-matrix" aria-label="Notification triggers">
      <thead>
        <tr>
          <th />
          {NOTIFICATION_MATRIX.columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {NOTIFICATION_MATRIX.rows.map(([row, names]) => (
          <tr key={row}>
            <th scope="row">{row}</th>
            {names.map((name) => (
              <td key={name}>
                <input
                  type="checkbox"
                  aria-label={labelOf(name)}
                  checked={form.values[name] === true}
                  disabled={disabled}
                  onChange={(e) => form.set(name, e.target.checked)}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={NOTIFICATION_MATRIX.columns.length + 1}>
            {[...IN_MATRIX].map((name) => (
              <FieldStatus key={name} form={form} name={name} />
            ))}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function DefaultsGroupForm({
  accountId,
  group,
  saved,
  canEdit,
}: {
  accountId: string;
  group: DefaultsGroup;
  saved: Values;
  canEdit: boolean;
}) {
  const settings = USER_DEFAULT_SETTINGS.filter((s) => s.group === group);
  const form = useSettingsForm(Object.fromEntries(settings.map((s) => [s.name, saved[s.name]])), {
    validate: (values) =>
      Object.fromEntries(
        settings.map((s) => [
          s.name,
          values[s.name] === undefined
            ? undefined
            : (defaultValueProblem(s, values[s.name]) ?? undefined),
        ]),
      ),
    send: (changes) =>
      api().updateUserSettingsDefaults({
        accountId,
        changes: changes as Record<string, boolean | number | string>,
      }),
  });
  const title = DEFAULTS_GROUP_TITLES[group];
  return (
    <fieldset className="org-subsection" aria-label={title}>
      <legend>{title}</legend>
      {group === 'notifications' ? <NotificationMatrix form={form} disabled={!canEdit} /> : null}
      {settings
        .filter((setting) => !IN_MATRIX.has(setting.name))
        .map((setting) => (
          <SettingControl key={setting.name} setting={setting} form={form} disabled={!canEdit} />
        ))}
    </fieldset>
  );
}

export function DefaultUserSettings({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  if (!account) return null;
  const canEdit = isAdminAccount(account);
  const saved = account.settings.realmUserDefaults as Values;
  return (
    <section className="settings-section org-section" aria-label="Default user settings">
      <h2>Default user settings</h2>
      <p className="org-note">
        These settings are the defaults for new users. Changing them does not change the settings of
        existing users.
        {canEdit ? null : ' Only organization administrators can change them.'}
      </p>
      {(['display', 'notifications', 'behaviour'] as const).map((group) => (
        <DefaultsGroupForm
          key={group}
          accountId={accountId}
          group={group}
          saved={saved}
          canEdit={canEdit}
        />
      ))}
    </section>
  );
}
