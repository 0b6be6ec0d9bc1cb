// A confirmation before a consequential change (deactivating or reactivating someone): says what
// will happen, and shows the server's refusal in place if the change is refused.
import { useState, type ReactNode } from 'react';
import { errorText } from '../../../bridge/api';

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
    <div className="org-dialog-backdrop">
      <div
        className="org-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          // The window's Esc would go back a view; here it only closes the dialog.
          e.stopPropagation();
          onClose();
        }}
      >
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
      </div>
    </div>
  );
}
