// The confirmation before an account is removed: what goes (this computer's copy, not the server's
// data), and first of all what would be lost — messages not yet sent and drafts kept only here —
// listed, with a button that copies them. While messages are still sending the action says it
// discards them, so nobody removes an account mid-send without being told. A ConfirmAlert
// (lib/ui/Dialog): Cancel has the focus first, and Esc or Cancel closes it.
import { useEffect, useRef, useState } from 'react';
import { ConfirmAlert } from '../../lib/ui/Dialog';
import { Copy, LogOut, TriangleAlert } from 'lucide-react';
import type { AccountSummary } from '../../../shared/ipc/accounts';
import { errorText } from '../../bridge/api';
import { useChatStoreApi } from '../../store/hooks';
import { asText, atRisk, removeAccount, type AtRisk, type UnsentItem } from './account-removal';
import { useAccountIdentity } from './AccountBadge';
import './accounts.css';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function ItemList({ items, label }: { items: UnsentItem[]; label: string }) {
  return (
    <ul className="remove-account-items" aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <span className="to">{item.to}</span>
          <span className="content">{item.content}</span>
          {item.sending ? <span className="state">still sending</span> : null}
        </li>
      ))}
    </ul>
  );
}

function RemoveAccountQuestion({
  account,
  onClose,
}: {
  account: AccountSummary;
  onClose: () => void;
}) {
  const store = useChatStoreApi();
  const identity = useAccountIdentity(account);
  const [risk, setRisk] = useState<AtRisk | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  // Focus goes back where it was on Cancel; after a removal that place (the removed account's
  // button or row) is gone, so it goes to the account now shown, else wherever the page starts.
  const removed = useRef(false);

  useEffect(() => {
    let live = true;
    atRisk(store.getState().accounts[account.id], account.id)
      .then((found) => live && setRisk(found))
      // Main could not say: the dialog says so rather than pretending nothing is at risk.
      .catch((e: unknown) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [store, account.id]);

  const unsent = risk?.unsent ?? [];
  const drafts = risk?.localDrafts ?? [];
  const sending = unsent.filter((item) => item.sending).length;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(asText([...unsent, ...drafts]));
      setCopied(true);
    } catch (e) {
      setError(`Could not copy: ${errorText(e)}`);
    }
  };
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await removeAccount(store, account.id);
      removed.current = true;
      onClose();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <ConfirmAlert
      label={`Sign out and remove ${identity.label}?`}
      className="remove-account-dialog"
      confirmLabel={
        <>
          <LogOut size={16} aria-hidden="true" />
          {unsent.length > 0
            ? `Remove and discard ${plural(unsent.length, 'message', 'messages')}`
            : 'Sign out and remove'}
        </>
      }
      confirmDisabled={busy || (!risk && !error)}
      onConfirm={() => void remove()}
      onClose={onClose}
      onCloseAutoFocus={(event) => {
        if (!removed.current) return;
        event.preventDefault();
        document.querySelector<HTMLElement>('.account-switcher .account.active')?.focus();
      }}
      body={
        <>
          {!risk && !error ? (
            <p className="remove-account-checking">Checking for unsent work…</p>
          ) : null}
          {unsent.length > 0 ? (
            <section className="remove-account-risk" aria-label="Unsent messages">
              <h3>
                <TriangleAlert size={16} aria-hidden="true" />
                {sending > 0
                  ? `${plural(unsent.length, 'message is', 'messages are')} not sent yet (${sending} still sending)`
                  : `${plural(unsent.length, 'message was', 'messages were')} not sent`}
              </h3>
              <p>
                {unsent.length === 1 ? 'It is' : 'They are'} lost when the account is removed. Wait
                until {unsent.length === 1 ? 'it is' : 'they are'} sent, or copy{' '}
                {unsent.length === 1 ? 'it' : 'them'}.
              </p>
              <ItemList items={unsent} label="Unsent messages" />
            </section>
          ) : null}
          {drafts.length > 0 ? (
            <section className="remove-account-risk" aria-label="Drafts">
              <h3>
                <TriangleAlert size={16} aria-hidden="true" />
                {plural(drafts.length, 'draft is', 'drafts are')} only on this computer
              </h3>
              <ItemList items={drafts} label="Drafts only on this computer" />
            </section>
          ) : null}
          {unsent.length + drafts.length > 0 ? (
            <button type="button" className="remove-account-copy" onClick={() => void copy()}>
              <Copy size={16} aria-hidden="true" />
              {copied ? 'Copied' : 'Copy them'}
            </button>
          ) : null}
          {risk && risk.syncedDrafts > 0 ? (
            <p>
              {plural(risk.syncedDrafts, 'draft is', 'drafts are')} saved on the server and will be
              there when you sign in again.
            </p>
          ) : null}
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : null}
        </>
      }
    >
      <p>
        Tributary signs out of {account.email} on {account.site} and forgets it on this computer:
        its key, its saved copy of messages, and meeting downloads. Your messages, channels and
        settings stay on the server; you can sign in again at any time.
      </p>
    </ConfirmAlert>
  );
}

/** Open while `account` is set; `onClose` clears it (on Cancel, Esc, or once removed). */
export function RemoveAccountDialog({
  account,
  onClose,
}: {
  account: AccountSummary | null;
  onClose: () => void;
}) {
  return account ? (
    <RemoveAccountQuestion key={account.id} account={account} onClose={onClose} />
  ) : null;
}
