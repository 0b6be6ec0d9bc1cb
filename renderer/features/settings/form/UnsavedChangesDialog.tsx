// The question before leaving a settings section (or Settings) that holds a change that could not
// be saved: keep editing (the default, so nothing is lost by a stray Enter) or discard it.
import { AlertDialog } from 'radix-ui';
import { discardUnsavedSettings, leaveQuestion, useLeaveQuestion } from './unsaved';

export function UnsavedChangesDialog() {
  const proceed = useLeaveQuestion();
  const close = () => leaveQuestion.setState({ proceed: null });
  return (
    <AlertDialog.Root open={proceed !== null} onOpenChange={(open) => (open ? null : close())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="org-dialog-backdrop" />
        <AlertDialog.Content
          className="org-dialog unsaved-dialog"
          // Modal for the app's keys too (shortcuts.ts skips letters behind aria-modal), and its
          // keys end here.
          aria-modal="true"
          onKeyDown={(e) => e.stopPropagation()}
        >
          <AlertDialog.Title asChild>
            <h3>Discard changes?</h3>
          </AlertDialog.Title>
          <AlertDialog.Description className="org-dialog-body">
            A change on this screen has not been saved: the server refused it, it cannot be sent as
            it is, or it waits for its Save button. Keep editing to correct or save it.
          </AlertDialog.Description>
          <div className="org-dialog-buttons">
            <AlertDialog.Cancel asChild>
              <button type="button" className="primary">
                Keep editing
              </button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <button
                type="button"
                className="danger"
                onClick={() => {
                  close();
                  discardUnsavedSettings();
                  proceed?.();
                }}
              >
                Discard changes
              </button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
