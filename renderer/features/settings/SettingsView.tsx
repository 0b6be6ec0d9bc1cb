// Settings: a navigation of personal and organization screens beside the chosen one, as in the
// public web app's settings overlay. Which screens exist is sections.ts.
// Settings' stylesheets load with this screen, not with the app's first one (shell/styles.ts).
import '../../styles/settings.css';
import '../../styles/settings-admin-extras.css';
import { useChatStore } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { replaceRoute } from '../../store/ui-store';
import { SETTINGS_SECTIONS, type SettingsSection } from './sections';
import { leaveSettings } from './form/unsaved';
import { UnsavedChangesDialog } from './form/UnsavedChangesDialog';

const GROUPS: Array<[SettingsSection['group'], string]> = [
  ['personal', 'Personal settings'],
  ['organization', 'Organization settings'],
];

export function SettingsView({ accountId, section }: { accountId: string; section?: string }) {
  const account = useChatStore(selectActiveAccount);
  if (!account) return null;
  const shown = SETTINGS_SECTIONS.filter((s) => s.visible?.(account) ?? true);
  const current = shown.find((s) => s.id === section) ?? shown[0];
  return (
    <section className="view settings" aria-label="Settings">
      <nav className="settings-nav" aria-label="Settings sections">
        {GROUPS.map(([group, title]) => {
          const items = shown.filter((s) => s.group === group);
          if (items.length === 0) return null;
          return (
            <div key={group} className="settings-nav-group">
              <h2>{title}</h2>
              <ul>
                {items.map((s) => (
                  <li key={s.id}>
                    <button
                      type="button"
                      aria-current={s.id === current?.id ? 'page' : undefined}
                      onClick={() =>
                        leaveSettings(() => replaceRoute({ kind: 'settings', section: s.id }))
                      }
                    >
                      {s.label}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <div className="settings-pane">
        {current ? <current.Component key={current.id} accountId={accountId} /> : null}
      </div>
      <UnsavedChangesDialog />
    </section>
  );
}
