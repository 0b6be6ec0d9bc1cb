// A confirmation before a consequential change (deactivating or reactivating someone): says what
// will happen, and shows the server's refusal in place if the change is refused. A modal dialog
// (lib/ui/Dialog): Esc or Cancel closes it, and the focus goes back where it was.
import { useState, type ReactNode } from 'react';
import { errorText } from '../../../bridge/api';
import { ModalDialog } from '../../../lib/ui/Dialog';

export function ConfirmDialog({
  title,
  confirmLabel,
  children,
  onConfirm,
  onClose,
}: {
  title: string;
  confirmLabel: string;
  children: ReactNode;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <ModalDialog label={title} className="org-dialog" onClose={onClose}>
      <h3>{title}</h3>
      <div className="org-dialog-body">{children}</div>
      {refusal ? <p role="alert">{refusal}</p> : null}
      <div className="org-dialog-buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          autoFocus
          onClick={() => {
            setBusy(true);
            onConfirm()
              .then(onClose)
              .catch((e: unknown) => {
                setRefusal(errorText(e));
                setBusy(false);
              });
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
