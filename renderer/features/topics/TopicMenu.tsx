// The topic menu wherever a topic appears (the sidebar's topic rows, the message list's recipient
// headers), with the public web app's topic actions: follow / mute, mark as read / unread, copy
// link, move or rename, resolve / unresolve, and delete. Moving and resolving are offered only to
// people the realm lets do them (topic-permissions.ts), deleting only to administrators (the public
// web app's and server's rule). Moving opens a modal dialog and deleting asks first (lib/ui/Dialog);
// a refusal by the server is shown in the dialog, which stays open, and nothing changes.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount, topicVisibility } from '../../store';
import { isTopicResolved, topicNarrow } from '../../../shared/narrow';
import { errorText } from '../../bridge/api';
import { uiStore } from '../../store/ui-store';
import { showFeedback } from '../../lib/ui/feedback';
import { RowMenu } from '../sidebar/RowMenu';
import { MenuItem } from '../../lib/ui/Menu';
import { ConfirmAlert, ModalDialog } from '../../lib/ui/Dialog';
import { isRealmAdmin } from '../channels/channel-permissions';
import {
  ArrowRightLeft,
  BellOff,
  BellRing,
  BookCheck,
  BookDashed,
  CircleCheck,
  CircleX,
  Link,
  Trash2,
} from 'lucide-react';
import { useMarkReadControl } from '../messages/mark-read-control';
import { MoveTopicForm, type MoveChoice } from './MoveTopicForm';
import { moveLabel, useTopicPermissions, type TopicPermissions } from './topic-permissions';
import {
  deleteTopic,
  markNarrowRead,
  markTopicUnread,
  moveMessages,
  setPolicyWithFeedback,
  toggleResolved,
  topicLink,
  topicMessageId,
  type TopicRef,
} from './topic-actions';

export function TopicMenu({
  accountId,
  streamId,
  topic,
  messageId,
  report,
}: {
  accountId: string;
  streamId: number;
  topic: string;
  /** The message the menu belongs to (a recipient header's first message): moves may start at it. */
  messageId?: number;
  /** Shows a failed request's error; without it the menu shows it under itself. */
  report?: (request: Promise<unknown>) => void;
}) {
  const store = useChatStoreApi();
  const policy = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account ? topicVisibility(account.userTopics, streamId, topic) : 0;
  });
  const permissions = useTopicPermissions(streamId);
  const canDelete = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account !== undefined && isRealmAdmin(account);
  });
  const queryClient = useQueryClient();
  const markRead = useMarkReadControl();
  const [moving, setMoving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref: TopicRef = { accountId, streamId, topic };
  const show =
    report ??
    ((request: Promise<unknown>) => {
      setError(null);
      request.catch((e: unknown) => setError(errorText(e)));
    });
  /** The message a whole-topic edit goes through. */
  const anyMessage = async () =>
    messageId ?? topicMessageId(ref, selectActiveAccount(store.getState()));
  const channelName = () =>
    selectActiveAccount(store.getState())?.channels.channels.get(streamId)?.name ?? '';
  const site = () => uiStore.getState().accounts.find((a) => a.id === accountId)?.site ?? '';

  return (
    <>
      <RowMenu label={`Topic ${topic || '(no topic)'} options`}>
        {/* Each toggle sets its policy, or back to none (0) when it is the current one. */}
        {(
          [
            [3, 'Unfollow topic', 'Follow topic', BellRing],
            [1, 'Unmute topic', 'Mute topic', BellOff],
          ] as const
        ).map(([toggled, undo, label, icon]) => (
          <MenuItem
            key={toggled}
            icon={icon}
            onSelect={() =>
              show(
                setPolicyWithFeedback(
                  { ...ref, channelName: channelName() },
                  policy === toggled ? 0 : toggled,
                  policy,
                ),
              )
            }
          >
            {policy === toggled ? undo : label}
          </MenuItem>
        ))}
        <MenuItem
          icon={BookCheck}
          onSelect={() => show(markNarrowRead(accountId, topicNarrow(streamId, topic)))}
        >
          Mark topic as read
        </MenuItem>
        <MenuItem
          icon={BookDashed}
          onSelect={() => {
            // An open list would mark them read again at once: it waits for the reader to scroll.
            markRead.suspend();
            show(
              markTopicUnread(ref).catch((e: unknown) => {
                markRead.resume();
                throw e;
              }),
            );
          }}
        >
          Mark topic as unread
        </MenuItem>
        <MenuItem
          icon={Link}
          onSelect={() =>
            show(
              navigator.clipboard
                .writeText(topicLink(site(), streamId, channelName(), topic))
                .then(() => showFeedback({ title: 'Link copied' })),
            )
          }
        >
          Copy link to topic
        </MenuItem>
        {permissions.moveTopics || permissions.moveChannels ? (
          <MenuItem icon={ArrowRightLeft} onSelect={() => setMoving(true)}>
            {moveLabel(permissions)}
          </MenuItem>
        ) : null}
        {permissions.resolve ? (
          <MenuItem
            icon={isTopicResolved(topic) ? CircleX : CircleCheck}
            onSelect={() => show(anyMessage().then((id) => toggleResolved(accountId, id, topic)))}
          >
            {isTopicResolved(topic) ? 'Mark as unresolved' : 'Mark as resolved'}
          </MenuItem>
        ) : null}
        {canDelete ? (
          <MenuItem icon={Trash2} onSelect={() => setDeleting(true)}>
            Delete topic
          </MenuItem>
        ) : null}
      </RowMenu>
      {deleting ? (
        <DeleteTopicDialog
          topic={topic}
          onDelete={() =>
            deleteTopic(ref, queryClient, () => selectActiveAccount(store.getState()))
          }
          onClose={() => setDeleting(false)}
        />
      ) : null}
      {error && !moving ? (
        <p role="alert" className="error topic-menu-error">
          {error}
        </p>
      ) : null}
      {moving ? (
        <MoveTopicDialog
          streamId={streamId}
          topic={topic}
          fromMessage={messageId !== undefined}
          permissions={permissions}
          onMove={async (choice) => {
            await moveMessages({
              accountId,
              messageId: await anyMessage(),
              fromStreamId: streamId,
              toStreamId: choice.streamId,
              fromTopic: topic,
              topic: choice.topic,
              propagateMode: choice.propagateMode,
              notifyOld: choice.notifyOld,
              notifyNew: choice.notifyNew,
            });
          }}
          onClose={() => setMoving(false)}
        />
      ) : null}
    </>
  );
}

/** The move form in a modal dialog; the server's refusal is shown in it, which stays open. */
function MoveTopicDialog({
  streamId,
  topic,
  fromMessage,
  permissions,
  onMove,
  onClose,
}: {
  streamId: number;
  topic: string;
  fromMessage: boolean;
  permissions: TopicPermissions;
  onMove: (choice: MoveChoice) => Promise<void>;
  onClose: () => void;
}) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog
      label={`Move or rename ${topic || '(no topic)'}`}
      className="move-topic-dialog"
      onClose={onClose}
    >
      <h3>{moveLabel(permissions)}</h3>
      <MoveTopicForm
        className="move-form"
        streamId={streamId}
        topic={topic}
        scope={fromMessage ? 'change_all' : undefined}
        permissions={permissions}
        onCancel={onClose}
        onMove={(choice) => {
          if (busy) return;
          setBusy(true);
          setRefusal(null);
          onMove(choice)
            .then(onClose)
            .catch((e: unknown) => {
              setRefusal(errorText(e));
              setBusy(false);
            });
        }}
      />
      {refusal ? (
        <p role="alert" className="error">
          {refusal}
        </p>
      ) : null}
    </ModalDialog>
  );
}

/**
 * Asks before deleting a topic, naming it, as the public web app does; the request may take a while
 * for a large topic (the button stays disabled), and a refusal is shown here without closing.
 */
function DeleteTopicDialog({
  topic,
  onDelete,
  onClose,
}: {
  topic: string;
  onDelete: () => Promise<void>;
  onClose: () => void;
}) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmAlert
      label="Delete topic"
      confirmLabel={busy ? 'Deleting…' : 'Delete'}
      confirmDisabled={busy}
      className="delete-topic-dialog"
      onClose={onClose}
      onConfirm={() => {
        setBusy(true);
        setRefusal(null);
        onDelete()
          .then(onClose)
          .catch((e: unknown) => {
            setRefusal(errorText(e));
            setBusy(false);
          });
      }}
      body={
        refusal ? (
          <p role="alert" className="error">
            {refusal}
          </p>
        ) : null
      }
    >
      <p>
        Deleting a topic removes it and every message in it for everyone, at once. People who were
        notified about these messages (by email or on their phone) may find that confusing.
      </p>
      <p>
        Permanently delete <strong>{topic || '(no topic)'}</strong>?
      </p>
    </ConfirmAlert>
  );
}
