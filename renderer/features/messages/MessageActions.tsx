// The actions of one message: react, quote and reply, star, edit (within the realm's limit), move or
// rename the topic with a propagate mode, resolve/unresolve, delete, mark unread from here, copy link.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  AlarmClock,
  ArrowRightLeft,
  CheckCheck,
  CircleCheck,
  CircleX,
  Ellipsis,
  History as HistoryIcon,
  Link,
  MailOpen,
  Pencil,
  Quote,
  SmilePlus,
  Star,
  StarOff,
  Trash2,
} from 'lucide-react';
import { Menu, MenuItem, MenuSeparator } from '../../lib/ui/Menu';
import { ConfirmAlert } from '../../lib/ui/Dialog';
import type { MessageWithFlags } from '../../../shared/api/types';
import { isTopicResolved } from '../../../shared/narrow';
import { messageNearFragment } from '../../../shared/narrow/link';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api, errorText } from '../../bridge/api';
import {
  requestCompose,
  startEditing,
  toggleEditHistory,
  uiStore,
  useUi,
} from '../../store/ui-store';
import { htmlToText } from '../../lib/sanitize';
import { showFeedback } from '../../lib/ui/feedback';
import { clockNow } from '../../lib/format';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { toggleReaction } from './Reactions';
import { conversationOf } from './narrow-info';
import { destinationOfMessage } from '../compose/Compose';
import { useMarkReadControl } from './mark-read-control';
import { ReadReceipts } from './ReadReceipts';
import { ReminderForm } from './ReminderForm';
import { MoveTopicForm } from '../topics/MoveTopicForm';
import { moveMessages, toggleResolved, type PropagateMode } from '../topics/topic-actions';
import { moveLabel, useTopicPermissions } from '../topics/topic-permissions';
import { PLACEMENT_MODE, placementFromServer, placementFromStore } from '../topics/move-placement';
import { typingInField } from '../../lib/typing-in-field';

type Mode = null | 'menu' | 'emoji' | 'move' | 'confirm-delete' | 'read-receipts' | 'reminder';

/** The message's permanent link on its realm, in its conversation, as the web app writes it. */
export function messageLink(site: string, message: MessageWithFlags, selfUserId: number): string {
  return `${site.replace(/\/$/, '')}/${messageNearFragment(message, selfUserId)}`;
}

/**
 * A quote of a message's Markdown source the way the web app writes it: who said it, linked to the
 * message, then the source in a quote block whose fence is longer than any fence inside it.
 */
export function quoteText(message: MessageWithFlags, source: string, link: string): string {
  const longestFence = Math.max(
    0,
    ...[...source.matchAll(/^\s*(`{3,}|~{3,})/gm)].map((m) => m[1]!.length),
  );
  const fence = '`'.repeat(Math.max(3, longestFence + 1));
  const body = source.trim();
  return `@_**${message.sender_full_name}|${message.sender_id}** [said](${link}):\n${fence}quote\n${body}\n${fence}\n`;
}

/**
 * Opens the compose box in the message's conversation with a quote of its Markdown source, fetched
 * through main (GET /messages/{id}); the rendered text, which loses formatting and links, only when
 * the source cannot be had.
 */
export async function quoteAndReply(
  accountId: string,
  message: MessageWithFlags,
  selfUserId: number,
): Promise<void> {
  const site = uiStore.getState().accounts.find((a) => a.id === accountId)?.site ?? '';
  let source: string;
  try {
    const res = await api().getMessage({ accountId, messageId: message.id });
    source = res.raw_content ?? htmlToText(message.content);
  } catch {
    source = htmlToText(message.content);
  }
  // As `r` does: in the open view, addressed to the message's conversation.
  requestCompose(
    'quote',
    quoteText(message, source, messageLink(site, message, selfUserId)),
    destinationOfMessage(message, selfUserId) ?? undefined,
  );
}

/**
 * Whether a menu opened from these actions should open upwards: when the row sits lower in the
 * message list than there is room for it below (the last rows, just above the compose box).
 */
function moreRoomAbove(actions: HTMLElement): boolean {
  const list = actions.closest('.message-list');
  const bounds = list ? list.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
  const at = actions.getBoundingClientRect();
  return at.top - bounds.top > bounds.bottom - at.bottom;
}

/**
 * The action buttons of one row. Closed (the state of every row at first paint) they are two plain
 * buttons with no store subscriptions; the menus, forms and what they read from the store mount
 * only once one is opened, in ActionsPanel. The buttons stay the same elements when it opens, so
 * keyboard focus stays on them.
 */
export function MessageActions({
  accountId,
  message,
}: {
  accountId: string;
  message: MessageWithFlags;
}) {
  const [mode, setModeState] = useState<Mode>(null);
  // Read when an emoji is picked, not subscribed to: a closed row follows nothing in the store.
  const store = useChatStoreApi();
  const [opensUp, setOpensUp] = useState(false);
  /** The list the row is in: its menu stays inside it, off the compose box below. */
  const [list, setList] = useState<Element | null>(null);
  /** The row: the emoji picker opens above or below all of it, leaving the message in view. */
  const [row, setRow] = useState<HTMLElement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  /** The mode as last set, read by the menu's callbacks within the same event. */
  const modeRef = useRef<Mode>(null);
  const selected = useUi((s) => s.selectedMessageId === message.id);
  /** Closing puts the focus back on the menu button when it was inside the actions (or lost with
   * them), so a keyboard user carries on from the message rather than from the top of the page. */
  const setMode = useCallback((next: Mode) => {
    modeRef.current = next;
    if (next === null) {
      const focused = document.activeElement;
      if (!focused || focused === document.body || rootRef.current?.contains(focused))
        menuButtonRef.current?.focus();
    } else if (rootRef.current) {
      setOpensUp(moreRoomAbove(rootRef.current));
      setList(rootRef.current.closest('.message-list'));
      setRow(rootRef.current.closest<HTMLElement>('.message-row'));
    }
    setModeState(next);
  }, []);
  // The list clips what lies outside it (its paint is contained): a form that does
  // not fit below the row opens upwards when it fits there; when neither side holds it whole, it
  // keeps its side and scrolls within the room the list has there.
  useLayoutEffect(() => {
    const root = rootRef.current;
    const popup = root?.querySelector<HTMLElement>('.menu');
    const list = root?.closest('.message-list');
    if (!mode || !root || !popup || !list) return;
    const bounds = list.getBoundingClientRect();
    const box = popup.getBoundingClientRect();
    if (box.bottom <= bounds.bottom && box.top >= bounds.top) return;
    if (!opensUp && root.getBoundingClientRect().top - bounds.top >= box.height) {
      setOpensUp(true);
      return;
    }
    const room = opensUp ? box.bottom - bounds.top : bounds.bottom - box.top;
    popup.style.maxHeight = `${Math.max(room - 4, 96)}px`;
    popup.style.overflowY = 'auto';
  }, [mode, opensUp]);
  const openMenu = useCallback(() => setMode('menu'), [setMode]);
  // Stable, so the selected row's key listener is not replaced on each of its renders.
  // `e` edits the selected message when the person may, as in the web app.
  const edit = useCallback(() => {
    const account = selectActiveAccount(store.getState());
    if (!account || !mayEdit(account.selfUserId, account.settings.realm, message)) return false;
    startEditing(message.id);
    return true;
  }, [store, message]);
  useMessageActionsKey(selected, openMenu, edit);
  return (
    <div
      className={`message-actions${mode ? ' open' : ''}${mode && opensUp ? ' opens-up' : ''}`}
      ref={rootRef}
    >
      <EmojiPicker
        accountId={accountId}
        open={mode === 'emoji'}
        onOpenChange={(open) => setMode(open ? 'emoji' : null)}
        collisionBoundary={list}
        anchor={row ?? undefined}
        side={opensUp ? 'top' : 'bottom'}
        trigger={
          <button type="button" className="icon" aria-label="Add reaction" title="Add reaction">
            <SmilePlus aria-hidden="true" size={16} />
          </button>
        }
        onPick={(e) => {
          const self = selectActiveAccount(store.getState())?.selfUserId ?? 0;
          runner(
            setMode,
            setError,
          )(toggleReaction(accountId, message, { name: e.name, code: e.code, type: e.type }, self));
        }}
      />
      <Menu
        label="Message actions"
        button={<Ellipsis aria-hidden="true" size={16} />}
        buttonProps={{
          ref: menuButtonRef,
          title: 'Message actions (i)',
          'aria-keyshortcuts': selected ? 'i' : undefined,
        }}
        open={mode === 'menu'}
        collisionBoundary={list}
        // Radix closes the menu after an item's onSelect: an item that opened a form keeps it.
        onOpenChange={(open) => {
          if (open) setMode('menu');
          else if (modeRef.current === 'menu') {
            modeRef.current = null;
            setModeState(null);
          }
        }}
        onCloseAutoFocus={(e) => {
          // A form or dialog chosen from the menu takes the focus (the edit box in the row too);
          // the button gets it otherwise.
          if (
            (modeRef.current !== null && modeRef.current !== 'menu') ||
            uiStore.getState().editingMessageId === message.id
          )
            e.preventDefault();
        }}
      >
        {mode === 'menu' ? (
          <MessageMenu
            accountId={accountId}
            message={message}
            setMode={setMode}
            setError={setError}
          />
        ) : null}
      </Menu>
      {mode && mode !== 'emoji' ? (
        <ActionsPanel
          accountId={accountId}
          message={message}
          mode={mode}
          setMode={setMode}
          setError={setError}
        />
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * `i` opens the actions menu of the message selected with the arrow keys and `e` edits it (when the
 * person may), as in the web app. Only the selected row's actions listen, so one key press opens one
 * menu.
 */
function useMessageActionsKey(selected: boolean, open: () => void, edit: () => boolean): void {
  useEffect(() => {
    if (!selected) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== 'i' && e.key !== 'e') || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.defaultPrevented) return;
      if (typingInField(e.target) || document.querySelector('[aria-modal="true"]')) return;
      if (e.key === 'e' ? edit() : (open(), true)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected, open, edit]);
}

/** Whether the person may edit the message's content now: their own, within the realm's limit. */
function mayEdit(self: number, realm: Record<string, unknown>, message: MessageWithFlags): boolean {
  const editLimit = realm.realm_message_content_edit_limit_seconds as number | null | undefined;
  return (
    message.sender_id === self &&
    realm.realm_allow_message_editing !== false &&
    (editLimit == null || editLimit === 0 || clockNow() / 1000 - message.timestamp < editLimit)
  );
}

/** Runs a request from the actions: closes them when it succeeds, shows its error when not. */
function runner(setMode: (mode: Mode) => void, setError: (error: string | null) => void) {
  return (p: Promise<unknown>) => {
    setError(null);
    p.then(() => setMode(null)).catch((e: unknown) => setError(errorText(e)));
  };
}

/** The items of the actions menu (lib/ui/Menu), each with the public web app's icon. */
function MessageMenu({
  accountId,
  message,
  setMode,
  setError,
}: {
  accountId: string;
  message: MessageWithFlags;
  setMode: (mode: Mode) => void;
  setError: (error: string | null) => void;
}) {
  const self = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const realm = useChatStore((s) => selectActiveAccount(s)?.settings.realm) ?? {};
  const selfIsAdmin = useChatStore(
    (s) =>
      !!selectActiveAccount(s)?.users.users.get(selectActiveAccount(s)?.selfUserId ?? -1)?.is_admin,
  );
  // Message reminders came with feature level 381.
  const canRemind = useChatStore(
    (s) => (selectActiveAccount(s)?.settings.featureLevel ?? 0) >= 381,
  );
  const canEdit = mayEdit(self, realm, message);
  // Moves from a message are bound by the realm's time limits from its send time.
  const topicRights = useTopicPermissions(
    message.type === 'stream' ? message.stream_id : -1,
    message.timestamp,
  );
  const starred = message.flags.includes('starred');
  const site = uiStore.getState().accounts.find((a) => a.id === accountId)?.site ?? '';
  const markRead = useMarkReadControl();
  const run = runner(setMode, setError);
  const resolved = message.type === 'stream' && isTopicResolved(message.subject);

  return (
    <>
      <MenuItem
        icon={Quote}
        onSelect={() => {
          setMode(null);
          void quoteAndReply(accountId, message, self);
        }}
      >
        Quote and reply
      </MenuItem>
      <MenuItem
        icon={starred ? StarOff : Star}
        onSelect={() =>
          run(
            api().updateFlags({
              accountId,
              messages: [message.id],
              op: starred ? 'remove' : 'add',
              flag: 'starred',
            }),
          )
        }
      >
        {starred ? 'Unstar' : 'Star'}
      </MenuItem>
      {canEdit ? (
        <MenuItem icon={Pencil} onSelect={() => startEditing(message.id)}>
          Edit message
        </MenuItem>
      ) : null}
      {message.type === 'stream' && (topicRights.moveTopics || topicRights.moveChannels) ? (
        <MenuItem icon={ArrowRightLeft} onSelect={() => setMode('move')}>
          {moveLabel(topicRights)}
        </MenuItem>
      ) : null}
      {message.type === 'stream' && topicRights.resolve ? (
        <MenuItem
          icon={resolved ? CircleX : CircleCheck}
          onSelect={() => run(toggleResolved(accountId, message.id, message.subject))}
        >
          {resolved ? 'Mark as unresolved' : 'Mark as resolved'}
        </MenuItem>
      ) : null}
      <MenuSeparator />
      <MenuItem
        icon={MailOpen}
        onSelect={() => {
          // The list would mark them read again at once (they are in view): it waits for
          // the reader to scroll, as in the web app.
          markRead.suspend();
          run(
            api()
              .updateFlagsForNarrow({
                accountId,
                anchor: message.id,
                numBefore: 0,
                numAfter: 5000,
                includeAnchor: true,
                narrow: conversationOf(message, self),
                op: 'remove',
                flag: 'read',
              })
              .catch((e: unknown) => {
                markRead.resume();
                throw e;
              }),
          );
        }}
      >
        Mark as unread from here
      </MenuItem>
      <MenuItem
        icon={Link}
        onSelect={() =>
          run(
            navigator.clipboard
              .writeText(messageLink(site, message, self))
              .then(() => showFeedback({ title: 'Link copied' })),
          )
        }
      >
        Copy link to message
      </MenuItem>
      {canRemind ? (
        <MenuItem icon={AlarmClock} onSelect={() => setMode('reminder')}>
          Remind me about this
        </MenuItem>
      ) : null}
      {message.last_edit_timestamp || message.last_moved_timestamp ? (
        <MenuItem icon={HistoryIcon} onSelect={() => toggleEditHistory(message.id)}>
          View edit history
        </MenuItem>
      ) : null}
      <MenuItem icon={CheckCheck} onSelect={() => setMode('read-receipts')}>
        Read receipts
      </MenuItem>
      {message.sender_id === self || selfIsAdmin ? (
        <>
          <MenuSeparator />
          <MenuItem icon={Trash2} onSelect={() => setMode('confirm-delete')}>
            Delete message
          </MenuItem>
        </>
      ) : null}
    </>
  );
}

/** The open form or dialog of one message's actions (the menu is MessageMenu; the emoji picker is
 * a popover on its button). */
function ActionsPanel({
  accountId,
  message,
  mode,
  setMode,
  setError,
}: {
  accountId: string;
  message: MessageWithFlags;
  mode: Exclude<Mode, null | 'emoji'>;
  setMode: (mode: Mode) => void;
  setError: (error: string | null) => void;
}) {
  const run = runner(setMode, setError);
  // Moves from a message are bound by the realm's time limits from its send time.
  const topicRights = useTopicPermissions(
    message.type === 'stream' ? message.stream_id : -1,
    message.timestamp,
  );
  const moveScope = useMoveScope(accountId, message, mode === 'move');

  return (
    <>
      {mode === 'reminder' ? (
        <ReminderForm accountId={accountId} messageId={message.id} onClose={() => setMode(null)} />
      ) : null}
      {mode === 'read-receipts' ? (
        <ReadReceipts accountId={accountId} messageId={message.id} onClose={() => setMode(null)} />
      ) : null}
      {mode === 'confirm-delete' ? (
        <ConfirmAlert
          label="Delete message?"
          confirmLabel="Delete"
          onClose={() => setMode(null)}
          onConfirm={() => run(api().deleteMessage({ accountId, messageId: message.id }))}
        >
          <p>Delete this message for everyone?</p>
        </ConfirmAlert>
      ) : null}
      {mode === 'move' && message.type === 'stream' ? (
        <MoveTopicForm
          streamId={message.stream_id}
          topic={message.subject}
          scope={moveScope}
          permissions={topicRights}
          onCancel={() => setMode(null)}
          onMove={(choice) =>
            run(
              moveMessages({
                accountId,
                messageId: message.id,
                fromStreamId: message.stream_id,
                toStreamId: choice.streamId,
                fromTopic: message.subject,
                topic: choice.topic,
                propagateMode: choice.propagateMode,
                notifyOld: choice.notifyOld,
                notifyNew: choice.notifyNew,
              }),
            )
          }
        />
      ) : null}
    </>
  );
}

/**
 * Which messages a move from this message moves at first (see move-placement.ts): from the store
 * when it can tell, else once the server has said; the form starts at "this and later" meanwhile.
 */
function useMoveScope(accountId: string, message: MessageWithFlags, open: boolean): PropagateMode {
  const openNarrow = useUi((s) => (s.route.kind === 'narrow' ? s.route.narrow : undefined));
  const stored = useChatStore((s) =>
    placementFromStore(selectActiveAccount(s), message, openNarrow),
  );
  const asked = useQuery({
    queryKey: ['move-placement', accountId, message.id, message.subject],
    queryFn: () => placementFromServer(accountId, message),
    enabled: open && stored === undefined,
    gcTime: 0,
    retry: false,
  });
  const placement = stored ?? asked.data;
  return placement ? PLACEMENT_MODE[placement] : 'change_later';
}
