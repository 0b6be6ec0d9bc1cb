// The compose box: closed to a bar of buttons until the person starts a message (as in the public
// web app, so the messages keep the window's height), then channel and topic (completed from the
// channel's topics), or direct-message recipients; the message with the public app's typeahead
// (use-completion.tsx) and a preview rendered by the server (Preview.tsx); Enter to send (or
// Ctrl+Enter, by enter_sends); drafts saved as the user types; uploads by button, drop or paste, as
// chips (uploads.tsx); local echo on send; typing notifications; the server's length limit shown
// before sending.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useChatActions, useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import type { Message } from '../../../shared/api/types';
import type { OutgoingMessage } from '../../../shared/ipc/chat';
import { api, errorText } from '../../bridge/api';
import { forgetUnsent, isHostUnreachable, keepUnsent } from '../../bridge/unsent';
import { takeComposeRequest, uiStore, useUi, type ComposeRequest } from '../../store/ui-store';
import { clockNow } from '../../lib/format';
import { draftBodyFor, findDraft, type Destination } from './drafts';
import { UploadList, useUploads, withoutLink } from './uploads';
import { RecipientPicker } from './RecipientPicker';
import { ScheduleControl, scheduledMessageFor } from './ScheduleControl';
import { useCompletion } from './use-completion';
import { ComboboxTextArea } from '../../lib/ui/Combobox';
import { TopicInput } from './TopicInput';
import { Preview } from './Preview';
import { SentElsewhere, useSentElsewhere } from './SentElsewhere';
import { ClosedCompose, replyLabel } from './ClosedCompose';
import { sentWithoutEvent, showSentMessage } from './unsubscribed-send';
import { X } from 'lucide-react';
import './compose.css';

const DRAFT_SAVE_DELAY_MS = 400;

export interface ComposeProps {
  accountId: string;
  /** Where the current view points compose (a topic, a channel, a DM conversation). */
  defaultDestination: Destination | null;
  /** The narrow on screen: a send it will not show says where it went. */
  viewNarrowKey?: string;
}

function newLocalId(): string {
  return `l${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

export function Compose({ accountId, defaultDestination, viewNarrowKey }: ComposeProps) {
  // The slices compose reads, each replaced only when it changes: messages, unreads and typing
  // elsewhere do not re-render compose (nor rebuild the user and channel lists below).
  const settings = useChatStore((s) => selectActiveAccount(s)?.settings);
  const channelsState = useChatStore((s) => selectActiveAccount(s)?.channels);
  const usersState = useChatStore((s) => selectActiveAccount(s)?.users);
  const selfUserId = useChatStore((s) => selectActiveAccount(s)?.selfUserId ?? 0);
  const actions = useChatActions();
  const chatStore = useChatStoreApi();
  const maxLength = settings?.limits.maxMessageLength ?? 10000;
  const maxTopic = settings?.limits.maxTopicLength ?? 60;
  const enterSends = settings?.user.enter_sends !== false;
  const subscriptions = channelsState?.subscriptions;

  const [mode, setMode] = useState<'stream' | 'private'>(defaultDestination?.type ?? 'stream');
  const [streamId, setStreamId] = useState<number | null>(
    defaultDestination?.type === 'stream' ? defaultDestination.streamId : null,
  );
  const [topic, setTopic] = useState(
    defaultDestination?.type === 'stream' ? defaultDestination.topic : '',
  );
  const [recipients, setRecipients] = useState<number[]>(
    defaultDestination?.type === 'private' ? defaultDestination.to : [],
  );
  const [text, setText] = useState('');
  /** The text as last rendered, for handlers made once (a request arriving from the store). */
  const textNow = useRef(text);
  useLayoutEffect(() => {
    textNow.current = text;
  }, [text]);
  const [error, setError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  // Closed until asked for (a button of the bar, a shortcut, a reply or quote) or while it holds a
  // draft: a conversation opened with a draft shows it.
  const [open, setOpen] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const topicRef = useRef<HTMLInputElement>(null);
  /** Main's draft key per destination (JSON of the destination), so a save that lands after the
   * user moved to another conversation still updates the right draft. */
  const draftKeys = useRef(new Map<string, string>());
  const sentElsewhere = useSentElsewhere(viewNarrowKey);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const effectiveStream = streamId ?? subscriptions?.keys().next().value ?? null;
  const destination: Destination | null =
    mode === 'stream'
      ? effectiveStream === null
        ? null
        : { type: 'stream', streamId: effectiveStream, topic }
      : recipients.length > 0
        ? { type: 'private', to: recipients }
        : null;
  const destinationId = JSON.stringify(destination);

  // --- Follow the view: a new conversation gets its own draft (state adjusted during render,
  // as React recommends for props that reset state). ---------------------------------------------
  const defaultId = JSON.stringify(defaultDestination);
  const [followedDefault, setFollowedDefault] = useState(defaultId);
  const [viewSeq, setViewSeq] = useState(0);
  const route = useUi((s) => s.route);
  const [followedRoute, setFollowedRoute] = useState(route);
  const sameView = followedRoute === route;
  if (!sameView) setFollowedRoute(route);
  // Within one view the default moves with the selected message; a message being typed keeps
  // its destination then.
  if (followedDefault !== defaultId && sameView && text.trim()) setFollowedDefault(defaultId);
  else if (followedDefault !== defaultId) {
    setFollowedDefault(defaultId);
    setViewSeq(viewSeq + 1);
    // A view with no destination starts empty: it must not keep the previous view's.
    setMode(defaultDestination?.type ?? 'stream');
    setStreamId(defaultDestination?.type === 'stream' ? defaultDestination.streamId : null);
    setTopic(defaultDestination?.type === 'stream' ? defaultDestination.topic : '');
    setRecipients(defaultDestination?.type === 'private' ? defaultDestination.to : []);
  }

  // --- Restore the draft of the destination (also after a restart). ---------------------------
  const drafts = useUi((s) => s.drafts[accountId]);
  // A new view shows its own draft (or nothing); editing the topic or recipients keeps the text
  // being typed, unless the new destination has a saved draft and the box is empty. Adjusted during
  // render, as React recommends for state that follows other state.
  const [restored, setRestored] = useState<{ dest: string; view: number } | null>(null);
  if (drafts && (restored?.dest !== destinationId || restored.view !== viewSeq)) {
    const viewChanged = restored?.view !== viewSeq;
    setRestored({ dest: destinationId, view: viewSeq });
    const found = findDraft(drafts, destination);
    if (viewChanged) {
      setText(found?.draft.content ?? '');
      setOpen(Boolean(found?.draft.content.trim()));
      setPreviewing(false);
    } else if (found && !text) setText(found.draft.content);
  }

  const pendingSave = useRef<(() => void) | null>(null);
  const saveDraft = useCallback(
    (content: string, dest: Destination | null) => {
      if (saveTimer.current) clearTimeout(saveTimer.current);
      const save = () => {
        saveTimer.current = null;
        pendingSave.current = null;
        const destId = JSON.stringify(dest);
        const key =
          draftKeys.current.get(destId) ??
          findDraft(uiStore.getState().drafts[accountId] ?? [], dest)?.key;
        if (!content.trim()) {
          if (key)
            void api()
              .deleteDraft({ accountId, key })
              .catch(() => undefined);
          draftKeys.current.delete(destId);
          return;
        }
        void api()
          .saveDraft({ accountId, key, draft: draftBodyFor(dest, content) })
          .then((saved) => {
            draftKeys.current.set(destId, saved.key);
          })
          .catch(() => undefined);
      };
      pendingSave.current = save;
      saveTimer.current = setTimeout(save, DRAFT_SAVE_DELAY_MS);
    },
    [accountId],
  );
  // Leaving the conversation (or closing the window) saves what is pending right away.
  useEffect(
    () => () => {
      if (saveTimer.current) clearTimeout(saveTimer.current);
      pendingSave.current?.();
    },
    [],
  );

  // --- Typing notifications. -------------------------------------------------------------------
  const typingSent = useRef(0);
  const stopTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typingTarget = () => {
    if (!destination) return null;
    return destination.type === 'stream'
      ? ({ type: 'channel', streamId: destination.streamId, topic: destination.topic } as const)
      : ({ type: 'direct', userIds: destination.to } as const);
  };
  const noteTyping = () => {
    const to = typingTarget();
    if (!to || !settings) return;
    const now = clockNow();
    if (now - typingSent.current > settings.limits.typingStartedWaitMs) {
      typingSent.current = now;
      void api()
        .sendTyping({ accountId, op: 'start', to })
        .catch(() => undefined);
    }
    if (stopTimer.current) clearTimeout(stopTimer.current);
    stopTimer.current = setTimeout(() => stopTyping(), settings.limits.typingStoppedWaitMs);
  };
  const stopTyping = () => {
    if (stopTimer.current) clearTimeout(stopTimer.current);
    stopTimer.current = null;
    if (!typingSent.current) return;
    typingSent.current = 0;
    const to = typingTarget();
    if (to)
      void api()
        .sendTyping({ accountId, op: 'stop', to })
        .catch(() => undefined);
  };

  // --- Uploads insert [name](url) when done; removing a chip takes its link out. ---------------
  const insertText = useCallback((snippet: string) => {
    setText((current) => {
      const el = textRef.current;
      const at = el && document.activeElement === el ? el.selectionStart : current.length;
      const sep = at > 0 && !/\s$/.test(current.slice(0, at)) ? ' ' : '';
      return current.slice(0, at) + sep + snippet + current.slice(at);
    });
  }, []);
  const removeLink = (link: string) => {
    const next = withoutLink(text, link);
    setText(next);
    saveDraft(next, destination);
  };
  const uploads = useUploads(accountId, text, insertText, removeLink);

  // --- Requests from keyboard shortcuts and message actions. ------------------------------------
  // Taken for the view this box shows: at once when made for it; made with a navigation (quote and
  // reply in another conversation, a shortcut from the inbox before this box mounted), once this
  // box has rendered that view and restored its draft, so the change of view does not wipe them.
  const handleRequest = useCallback(
    (request: ComposeRequest) => {
      setOpen(true);
      // A clicked message's conversation, unless the box holds a message being written.
      if (request.to && !textNow.current.trim()) {
        const to = request.to;
        setMode(to.type);
        if (to.type === 'stream') {
          setStreamId(to.streamId);
          setTopic(to.topic);
        } else setRecipients(to.to);
      }
      if (request.kind === 'dm') {
        setMode('private');
        setTimeout(() => document.getElementById('compose-recipients')?.focus(), 0);
        return;
      }
      if (request.kind === 'channel') {
        setMode('stream');
        setTimeout(() => topicRef.current?.focus(), 0);
        return;
      }
      if (request.text) insertText(request.text);
      setTimeout(() => textRef.current?.focus(), 0);
    },
    [insertText],
  );
  // Subscribed anew for each view shown (after its render), so `route` is the view on screen.
  useEffect(() => {
    const take = () => {
      const request = takeComposeRequest(route);
      if (request) handleRequest(request);
    };
    take();
    return uiStore.subscribe((state, prev) => {
      if (state.composeRequest !== prev.composeRequest) take();
    });
  }, [route, handleRequest]);

  const completion = useCompletion({
    accountId,
    text,
    destination,
    mode,
    replaceText: (next, cursor) => {
      setText(next);
      saveDraft(next, destination);
      completedCursor.current = cursor;
    },
  });
  // After a completion, the cursor goes after it as the new text is committed, before the next
  // key is handled (a frame later, keys typed meanwhile would land before it).
  const completedCursor = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (completedCursor.current === null) return;
    textRef.current?.setSelectionRange(completedCursor.current, completedCursor.current);
    completedCursor.current = null;
  }, [text]);

  const onTextChange = (value: string, cursor: number) => {
    // Typing goes back to editing, as in the public app.
    setPreviewing(false);
    setError(null);
    const completed = completion.update(value, cursor);
    setText(completed);
    saveDraft(completed, destination);
    if (value) noteTyping();
  };

  const users = useMemo(() => (usersState ? [...usersState.users.values()] : []), [usersState]);
  const togglePreview = () => {
    setPreviewing((p) => !p);
    completion.close();
    // The box keeps the focus (hidden while previewing), so typing goes on editing.
    setTimeout(() => textRef.current?.focus(), 0);
  };

  const tooLong = text.length > maxLength;
  const send = () => {
    const content = text.trim();
    if (!content) return;
    if (tooLong) {
      setError(
        `The message is ${text.length - maxLength} characters over the limit of ${maxLength}.`,
      );
      return;
    }
    if (!destination) {
      setError(mode === 'stream' ? 'Choose a channel.' : 'Choose at least one recipient.');
      return;
    }
    if (destination.type === 'stream' && destination.topic.length > maxTopic) {
      setError(`Topics are limited to ${maxTopic} characters.`);
      return;
    }
    const message: OutgoingMessage =
      destination.type === 'stream'
        ? { type: 'channel', to: destination.streamId, topic: destination.topic, content }
        : { type: 'direct', to: destination.to, content };
    const localId = newLocalId();
    actions.addLocalEcho(accountId, {
      localId,
      content,
      destination:
        destination.type === 'stream'
          ? { type: 'stream', streamId: destination.streamId, topic: destination.topic }
          : { type: 'private', to: destination.to },
    });
    sentElsewhere.noteSent(localId, destination);
    // Kept by the page until main has it (bridge/unsent.ts): the box is cleared, the text is not lost.
    keepUnsent({ accountId, localId, message });
    api()
      .sendMessage({ accountId, message, localId })
      .then((result) => {
        forgetUnsent([localId]);
        if (result.messageId === null) return;
        actions.markLocalEchoSent(accountId, localId, result.messageId);
        const account = chatStore.getState().accounts[accountId];
        if (destination.type === 'stream' && sentWithoutEvent(account, destination.streamId))
          void showSentMessage(actions, accountId, localId, {
            messageId: result.messageId,
            streamId: destination.streamId,
            topic: destination.topic,
          }).catch(() => undefined);
      })
      .catch((e: unknown) => {
        // Main unreachable: the echo waits (it says so) and the page hands it over later.
        if (isHostUnreachable(e)) return;
        forgetUnsent([localId]);
        actions.markLocalEchoFailed(accountId, localId, errorText(e));
      });
    clearSent();
  };

  /** After a send (or a schedule): the draft of this destination is gone and the box is empty. */
  const clearSent = () => {
    stopTyping();
    if (saveTimer.current) clearTimeout(saveTimer.current);
    pendingSave.current = null;
    const sentKey =
      draftKeys.current.get(destinationId) ??
      findDraft(uiStore.getState().drafts[accountId] ?? [], destination)?.key;
    if (sentKey)
      void api()
        .deleteDraft({ accountId, key: sentKey })
        .catch(() => undefined);
    draftKeys.current.delete(destinationId);
    setText('');
    setPreviewing(false);
    completion.close();
  };

  // The keys the open completion list does not take (it takes its own first).
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Alt+P toggles the preview, the public app's shortcut.
    if (e.altKey && e.code === 'KeyP') {
      e.preventDefault();
      togglePreview();
      return;
    }
    if (e.key === 'Escape' && previewing) {
      e.stopPropagation();
      setPreviewing(false);
      return;
    }
    if (e.key === 'Escape') {
      // An empty box closes (the public app's "cancel compose"); one holding a message stays open
      // with it and only lets go of the focus.
      if (!text.trim()) close();
      else textRef.current?.blur();
      return;
    }
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const modifier = e.ctrlKey || e.metaKey;
    const sends = enterSends ? !e.shiftKey && !modifier : modifier;
    if (sends) {
      e.preventDefault();
      send();
    } else if (enterSends && modifier) {
      // Ctrl+Enter inserts a newline when Enter sends, as Shift+Enter does.
      e.preventDefault();
      insertText('\n');
    }
  };

  // The subscribed channels, and the one addressed when it is not among them (a reply in a public
  // channel's view one is not subscribed to): else the list would show another channel's name.
  const channelOptions = useMemo(() => {
    const options = channelsState
      ? [...channelsState.subscriptions.values()].map((s) => ({ id: s.stream_id, name: s.name }))
      : [];
    const addressed =
      effectiveStream === null || channelsState?.subscriptions.has(effectiveStream)
        ? undefined
        : channelsState?.channels.get(effectiveStream);
    if (addressed) options.unshift({ id: addressed.stream_id, name: addressed.name });
    return options;
  }, [channelsState, effectiveStream]);

  /** Opens the box for `kind` (the bar's buttons), as a shortcut's request does. */
  const openFor = (kind: 'reply' | 'channel' | 'dm') => {
    if (kind === 'channel') setTopic('');
    if (kind === 'dm') setRecipients([]);
    handleRequest({ kind, seq: 0, route });
  };
  /** Closes the box; what it holds is kept as the destination's draft (saved now, not later). */
  const close = () => {
    stopTyping();
    if (saveTimer.current) clearTimeout(saveTimer.current);
    pendingSave.current?.();
    completion.close();
    setPreviewing(false);
    setError(null);
    setOpen(false);
  };

  if (!open) {
    return (
      <ClosedCompose
        replyLabel={replyLabel(defaultDestination, channelsState, usersState, selfUserId)}
        hasDraft={Boolean(text.trim())}
        onReply={() => openFor('reply')}
        onNewTopic={() => openFor('channel')}
        onNewDirect={() => openFor('dm')}
        dropHandlers={uploads.dropHandlers}
        dragging={uploads.dragging}
      />
    );
  }
  return (
    <form
      className={`compose${uploads.dragging ? ' dragging' : ''}`}
      aria-label="Compose"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      {...uploads.dropHandlers}
    >
      <div className="compose-destination">
        <div role="radiogroup" aria-label="Message type" className="segmented">
          <button
            type="button"
            role="radio"
            aria-checked={mode === 'stream'}
            onClick={() => setMode('stream')}
          >
            Channel
          </button>
          <button
            type="button"
            role="radio"
            aria-checked={mode === 'private'}
            onClick={() => setMode('private')}
          >
            Direct message
          </button>
        </div>
        {mode === 'stream' ? (
          <>
            <select
              aria-label="Channel"
              value={effectiveStream ?? ''}
              onChange={(e) => setStreamId(Number(e.target.value))}
            >
              {channelOptions.map((c) => (
                <option key={c.id} value={c.id}>
                  #{c.name}
                </option>
              ))}
            </select>
            <TopicInput
              accountId={accountId}
              streamId={effectiveStream}
              inputRef={topicRef}
              value={topic}
              maxLength={maxTopic}
              onChange={setTopic}
              onDone={() => textRef.current?.focus()}
            />
          </>
        ) : (
          <RecipientPicker
            users={users}
            selected={recipients}
            onChange={setRecipients}
            selfUserId={selfUserId}
          />
        )}
      </div>
      {sentElsewhere.place ? (
        <SentElsewhere place={sentElsewhere.place} onDismiss={sentElsewhere.dismiss} />
      ) : null}
      <div className={`compose-body${previewing ? ' previewing' : ''}`}>
        {previewing ? (
          <Preview
            accountId={accountId}
            content={text}
            onType={() => {
              setPreviewing(false);
              textRef.current?.focus();
            }}
          />
        ) : null}
        <ComboboxTextArea
          combobox={completion}
          ref={textRef}
          aria-label="Message"
          placeholder={
            enterSends
              ? 'Message (Enter to send, Shift+Enter for a new line)'
              : 'Message (Ctrl+Enter to send)'
          }
          value={text}
          rows={3}
          aria-invalid={tooLong}
          aria-describedby="compose-limit"
          onChange={(e) => onTextChange(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={uploads.onPaste}
        />
        {completion.list}
      </div>
      <UploadList {...uploads} />
      <div className="compose-footer">
        <label className="button">
          <span>Attach files</span>
          <input
            type="file"
            multiple
            aria-label="Attach files"
            className="visually-hidden"
            onChange={(e) => {
              uploads.start([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
        <button
          type="button"
          className="preview-toggle"
          aria-pressed={previewing}
          aria-keyshortcuts="Alt+P"
          title="Preview (Alt+P)"
          onClick={togglePreview}
        >
          Preview
        </button>
        <span id="compose-limit" className={`limit${tooLong ? ' over' : ''}`} aria-live="polite">
          {text.length > maxLength * 0.9 ? `${text.length} / ${maxLength}` : ''}
          {tooLong ? ` — ${text.length - maxLength} characters too long` : ''}
        </span>
        <ScheduleControl
          accountId={accountId}
          message={scheduledMessageFor(text, destination, tooLong)}
          onScheduled={clearSent}
        />
        <button type="submit" disabled={tooLong || !text.trim()}>
          Send
        </button>
        <button
          type="button"
          className="compose-close"
          aria-label="Close compose"
          title="Close compose (Esc in an empty box)"
          onClick={close}
        >
          <X aria-hidden size={16} />
        </button>
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The compose default for a view. */
export function destinationForView(
  streamId: number | undefined,
  topic: string | undefined,
  dmUserIds: number[] | undefined,
): Destination | null {
  if (dmUserIds) return { type: 'private', to: dmUserIds };
  if (streamId !== undefined) return { type: 'stream', streamId, topic: topic ?? '' };
  return null;
}

/** The conversation of a message, as a compose destination (the others in a DM, or self alone). */
export function destinationOfMessage(
  message: Message | undefined,
  selfUserId: number,
): Destination | null {
  if (!message) return null;
  if (message.type === 'stream')
    return { type: 'stream', streamId: message.stream_id, topic: message.subject };
  const others = message.display_recipient.map((r) => r.id).filter((id) => id !== selfUserId);
  return { type: 'private', to: others.length ? others : [selfUserId] };
}
