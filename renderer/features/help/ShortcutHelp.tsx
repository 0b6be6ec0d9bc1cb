// The keyboard shortcut help (`?`): every shortcut by group, as the public app's help lists them.
// Esc closes it (the global handler closes any overlay); so does the Close button.
import { useEffect, useRef } from 'react';
import { uiStore } from '../../store/ui-store';
import { shortcutSections, type ShortcutInfo } from './shortcut-list';
import './shortcut-help.css';

/** `global`: the shell's own keys (shell/shortcuts.ts), which this floor cannot import. */
export function ShortcutHelp({ global }: { global: readonly ShortcutInfo[] }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => before?.focus?.();
  }, []);
  const close = () => uiStore.setState({ overlay: null });
  return (
    <div
      className="overlay"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div
        className="panel shortcut-help"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
      >
        <header>
          <h2>Keyboard shortcuts</h2>
          <button ref={closeRef} type="button" onClick={close}>
            Close
          </button>
        </header>
        <div className="shortcut-sections">
          {shortcutSections(global).map(({ group, shortcuts }) => (
            <section key={group} aria-label={group}>
              <h3>{group}</h3>
              <table>
                <tbody>
                  {shortcuts.map((s) => (
                    <tr key={s.description}>
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
    </div>
  );
}
