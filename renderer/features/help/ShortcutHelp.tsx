// The keyboard shortcut help (`?`): every shortcut by group, as the public app's help lists them.
// A modal dialog (lib/ui/Dialog): Esc, a click beside it, the Close button or `?` again closes it
// (the dialog keeps its keys from the page's handlers, so `?` is heard here).
import { uiStore } from '../../store/ui-store';
import { shortcutSections, type ShortcutInfo } from './shortcut-list';
import { DialogClose, ModalDialog } from '../../lib/ui/Dialog';
import './shortcut-help.css';

/** `global`: the shell's own keys (shell/shortcuts.ts), which this floor cannot import. */
export function ShortcutHelp({ global }: { global: readonly ShortcutInfo[] }) {
  const close = () => uiStore.setState({ overlay: null });
  return (
    <ModalDialog label="Keyboard shortcuts" className="shortcut-help" onClose={close}>
      <div
        className="shortcut-help-body"
        onKeyDown={(e) => {
          if (e.key !== '?') return;
          e.preventDefault();
          close();
        }}
      >
        <header>
          <h2>Keyboard shortcuts</h2>
          <DialogClose>Close</DialogClose>
        </header>
        <div className="shortcut-sections">
          {shortcutSections(global).map(({ group, shortcuts }) => (
            <section key={group} aria-label={group}>
              <h3>{group}</h3>
              <table>
                <tbody>
                  {shortcuts.map((s) => (
                    <tr key={`${s.description} ${s.keys.join()}`}>
                      <td>{s.description}</td>
                      <td className="keys">
                        {s.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 ? ' or ' : ''}
                            <kbd>{k}</kbd>
                          </span>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </div>
      </div>
    </ModalDialog>
  );
}
