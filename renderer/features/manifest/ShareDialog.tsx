// "Share to a conversation…": lists the files main would post (the manifest, its recording, every
// referenced payload), lets the person pick a channel and topic or a person for a direct message,
// then shows each file's upload progress (the uploads are main's, tagged with this share) until the
// one message is posted. Cancelling stops every upload and posts nothing. A modal dialog
// (lib/ui/Dialog); while the files upload only its Cancel ends it (Esc waits), so no upload runs on
// with nothing on screen to show or stop it.
import { useEffect, useMemo, useState } from 'react';
import { ModalDialog } from '../../lib/ui/Dialog';
import type { MeetingShareFile, ShareDestination } from '../../../shared/ipc/manifest';
import { selectActiveAccount } from '../../store/selectors';
import { useChatStore } from '../../store/hooks';
import { useUi } from '../../store/ui-store';
import { callErrorText, viewerApi } from './manifestApi';

type Phase =
  | { kind: 'choosing' }
  | { kind: 'sharing' }
  | { kind: 'done'; where: string }
  | { kind: 'failed'; message: string };

function newGroupId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function ShareDialog({
  sessionId,
  defaultTopic,
  onClose,
}: {
  sessionId: string;
  /** The topic offered at first: the meeting's title, as a person would likely name it. */
  defaultTopic: string;
  onClose(): void;
}) {
  const account = useChatStore(selectActiveAccount);
  const accountId = account?.accountId ?? null;
  const channels = useMemo(
    () =>
      [...(account?.channels.subscriptions.values() ?? [])]
        .map((s) => ({ id: s.stream_id, name: s.name }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [account?.channels.subscriptions],
  );
  const people = useMemo(
    () =>
      [...(account?.users.users.values() ?? [])]
        .filter((u) => u.is_active !== false && !u.is_bot && u.user_id !== account?.selfUserId)
        .sort((a, b) => a.full_name.localeCompare(b.full_name)),
    [account?.users.users, account?.selfUserId],
  );

  const [files, setFiles] = useState<MeetingShareFile[] | null>(null);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [kind, setKind] = useState<'channel' | 'direct'>('channel');
  const [channelId, setChannelId] = useState<number | null>(null);
  const [topic, setTopic] = useState(defaultTopic.slice(0, 60));
  const [personId, setPersonId] = useState<number | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'choosing' });
  // A new group per attempt: a retry's progress is not mixed with the failed attempt's.
  const [group, setGroup] = useState(newGroupId);
  const progress = useUi((s) => s.uploads);
  const mine = useMemo(
    () => Object.values(progress).filter((p) => p.group === group),
    [progress, group],
  );

  useEffect(() => {
    viewerApi()
      .meetingShareFiles({ sessionId })
      .then(setFiles, (err: unknown) => setFilesError(callErrorText(err)));
  }, [sessionId]);

  const chosenChannel = channelId ?? channels[0]?.id ?? null;
  const chosenPerson = personId ?? people[0]?.user_id ?? null;
  const destination: ShareDestination | null =
    kind === 'channel'
      ? chosenChannel !== null && topic.trim()
        ? { type: 'channel', to: chosenChannel, topic: topic.trim() }
        : null
      : chosenPerson !== null
        ? { type: 'direct', to: [chosenPerson] }
        : null;

  const share = () => {
    if (!accountId || !destination) return;
    setPhase({ kind: 'sharing' });
    const where =
      destination.type === 'channel'
        ? `#${channels.find((c) => c.id === destination.to)?.name ?? ''} > ${destination.topic}`
        : (people.find((p) => p.user_id === destination.to[0])?.full_name ?? 'a direct message');
    viewerApi()
      .shareMeeting({ accountId, sessionId, group, destination })
      .then(
        () => setPhase({ kind: 'done', where }),
        (err: unknown) => {
          const message = callErrorText(err);
          setPhase(
            message ? { kind: 'failed', message } : { kind: 'failed', message: 'Cancelled.' },
          );
        },
      );
  };

  const cancel = () => {
    for (const upload of mine) {
      if (upload.state === 'uploading')
        void viewerApi().cancelUpload({ uploadId: upload.uploadId });
    }
  };

  return (
    <ModalDialog
      label="Share to a conversation"
      className="manifest-share"
      showTitle
      onClose={phase.kind === 'sharing' ? () => undefined : onClose}
    >
      {/* Part of the dialog from its first frame, read with it: an alert would interrupt. */}
      {!accountId && <p>Sign in to an account to share this meeting.</p>}
      {filesError && <p role="alert">{filesError}</p>}
      {files && (
        <>
          <p>One message will link these files, with a line naming the meeting and its length:</p>
          <ul className="manifest-share-files" aria-label="Files to share">
            {files.map((file) => {
              const upload = mine.find((p) => p.name === file.name);
              return (
                <li key={file.name}>
                  <code>{file.name}</code>{' '}
                  <span className="manifest-muted">{formatSize(file.size)}</span>
                  {upload && (
                    <>
                      {' '}
                      <progress max={upload.total || 1} value={upload.loaded} />{' '}
                      <span className="manifest-muted">{upload.state}</span>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      {accountId && files && phase.kind === 'choosing' && (
        <form
          className="manifest-share-form"
          onSubmit={(e) => {
            e.preventDefault();
            share();
          }}
        >
          <fieldset>
            <legend>Where</legend>
            <label>
              <input
                type="radio"
                name="share-kind"
                checked={kind === 'channel'}
                onChange={() => setKind('channel')}
              />{' '}
              Channel
            </label>{' '}
            <label>
              <input
                type="radio"
                name="share-kind"
                checked={kind === 'direct'}
                onChange={() => setKind('direct')}
              />{' '}
              Direct message
            </label>
          </fieldset>
          {kind === 'channel' ? (
            <>
              <label>
                Channel{' '}
                <select
                  value={chosenChannel ?? ''}
                  onChange={(e) => setChannelId(Number(e.target.value))}
                >
                  {channels.map((c) => (
                    <option key={c.id} value={c.id}>
                      #{c.name}
                    </option>
                  ))}
                </select>
              </label>{' '}
              <label>
                Topic{' '}
                <input value={topic} onChange={(e) => setTopic(e.target.value)} maxLength={60} />
              </label>
            </>
          ) : (
            <label>
              To{' '}
              <select
                value={chosenPerson ?? ''}
                onChange={(e) => setPersonId(Number(e.target.value))}
              >
                {people.map((p) => (
                  <option key={p.user_id} value={p.user_id}>
                    {p.full_name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <div className="manifest-share-buttons">
            <button type="button" onClick={onClose}>
              Close
            </button>{' '}
            <button type="submit" disabled={!destination}>
              Share
            </button>
          </div>
        </form>
      )}
      {phase.kind === 'sharing' && (
        <p role="status">
          Uploading…{' '}
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </p>
      )}
      {phase.kind === 'done' && (
        <p role="status" data-testid="share-done">
          Shared to {phase.where}.{' '}
          <button type="button" onClick={onClose}>
            Close
          </button>
        </p>
      )}
      {phase.kind === 'failed' && (
        <p role="alert">
          Not shared: {phase.message}{' '}
          <button
            type="button"
            onClick={() => {
              setGroup(newGroupId());
              setPhase({ kind: 'choosing' });
            }}
          >
            Try again
          </button>
        </p>
      )}
      {(!accountId || filesError) && (
        <button type="button" onClick={onClose}>
          Close
        </button>
      )}
    </ModalDialog>
  );
}
