// "Read receipts" of the message menu: who has read the message (the server leaves out its sender
// and anyone not sharing read receipts), with their pictures; the server's refusal is shown as it
// says it when the organization has turned read receipts off.
import { useQuery } from '@tanstack/react-query';
import { useAccountNames } from '../../store/hooks';
import { MenuDialog } from './MenuDialog';
import { api, errorText } from '../../bridge/api';
import { avatar } from './MessageRow';

export function ReadReceipts({
  accountId,
  messageId,
  onClose,
}: {
  accountId: string;
  messageId: number;
  onClose: () => void;
}) {
  const names = useAccountNames();
  const receipts = useQuery({
    queryKey: ['read-receipts', accountId, messageId],
    queryFn: () => api().getReadReceipts({ accountId, messageId }),
    staleTime: 0,
    retry: false,
  });
  const readers = (receipts.data?.userIds ?? [])
    .map((id) => ({ id, user: names?.users.users.get(id) }))
    .sort((a, b) => (a.user?.full_name ?? '').localeCompare(b.user?.full_name ?? ''));
  return (
    <MenuDialog label="Read receipts" className="read-receipts" onClose={onClose}>
      {receipts.isPending ? <p>Loading…</p> : null}
      {receipts.isError ? (
        <p role="alert" className="error">
          {errorText(receipts.error)}
        </p>
      ) : null}
      {receipts.isSuccess ? (
        readers.length === 0 ? (
          <p className="muted">No one has read this message yet.</p>
        ) : (
          <>
            <p className="muted">
              {readers.length === 1
                ? 'This message has been read by 1 person:'
                : `This message has been read by ${readers.length} people:`}
            </p>
            <ul aria-label="Read by">
              {readers.map(({ id, user }) => {
                const name = user?.full_name ?? `Unknown user ${id}`;
                return (
                  <li key={id}>
                    {avatar(accountId, user, name, 'avatar small')}
                    <span>{name}</span>
                  </li>
                );
              })}
            </ul>
          </>
        )
      ) : null}
      <button type="button" onClick={onClose} autoFocus>
        Close
      </button>
    </MenuDialog>
  );
}
