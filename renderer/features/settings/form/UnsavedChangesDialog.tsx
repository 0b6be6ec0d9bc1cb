// The question before leaving a settings section (or Settings) that holds a change that could not
// be saved: keep editing (the default, so nothing is lost by a stray Enter) or discard it.
import { ConfirmAlert } from '../../../lib/ui/Dialog';
import { discardUnsavedSettings, leaveQuestion, useLeaveQuestion } from './unsaved';

export function UnsavedChangesDialog() {
  const proceed = useLeaveQuestion();
  if (!proceed) return null;
  const close = () => leaveQuestion.setState({ proceed: null });
  return (
    <ConfirmAlert
      label="Discard changes?"
      cancelLabel="Keep editing"
      confirmLabel="Discard changes"
      onClose={close}
      onConfirm={() => {
        close();
        discardUnsavedSettings();
        proceed();
      }}
    >
      <p>
        A change on this screen has not been saved: the server refused it, it cannot be sent as it
        is, or it waits for its Save button. Keep editing to correct or save it.
      </p>
    </ConfirmAlert>
  );
}
