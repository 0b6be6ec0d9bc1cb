// The message box's typeahead: the token at the cursor, its suggestions (people, groups and
// wildcards; channels, then a channel's topics; emoji) and what picking one writes. The list, its
// keys (arrows, Tab or Enter, Esc) and its place above the box are lib/ui/Combobox's.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useChatStore, useChatStoreApi } from '../../store/hooks';
import { selectActiveAccount } from '../../store';
import { api } from '../../bridge/api';
import {
  applyCompletion,
  candidateName,
  channelSyntax,
  channelTopicSyntax,
  matchChannels,
  matchMentions,
  matchTopics,
  mentionSyntax,
  tokenAtCursor,
  topicJump,
  type CompletionToken,
} from './autocomplete';
import { mentionContext, mentionableGroups } from './mention-context';
import { useEmojiSuggestions } from './emoji-completion';
import type { Destination } from './drafts';
import { Emoji } from '../emoji/Emoji';
import type { EmojiEntry } from '../emoji/emoji-data';
import { useComboboxList } from '../../lib/ui/Combobox';

interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  /** Replaces the token. */
  insert: string;
  /** No space after: `#**channel>` goes on to the channel's topics. */
  keepOpen?: boolean;
  emoji?: EmojiEntry;
}

/** A channel's topics from the server, newest first (shared with the sidebar's cache). */
export function useChannelTopics(accountId: string, streamId: number | null): string[] {
  const generation = useChatStore((s) => s.accounts[accountId]?.generation ?? 0);
  const topics = useQuery({
    queryKey: ['channel-topics', accountId, generation, streamId],
    queryFn: () => api().getStreamTopics({ accountId, streamId: streamId! }),
    enabled: streamId !== null,
    staleTime: 60_000,
    retry: 1,
  }).data?.topics;
  return useMemo(() => (topics ?? []).map((t) => t.name), [topics]);
}

export interface CompletionInput {
  accountId: string;
  text: string;
  /** Called with the completed text and where the cursor goes. */
  replaceText: (text: string, cursor: number) => void;
  destination: Destination | null;
  mode: 'stream' | 'private';
}

export function useCompletion({
  accountId,
  text,
  replaceText,
  destination,
  mode,
}: CompletionInput) {
  const [token, setToken] = useState<CompletionToken | null>(null);
  const storeApi = useChatStoreApi();
  const usersState = useChatStore((s) => selectActiveAccount(s)?.users);
  const channelsState = useChatStore((s) => selectActiveAccount(s)?.channels);
  const users = useMemo(() => (usersState ? [...usersState.users.values()] : []), [usersState]);
  // One array per channels state: matchChannels folds and sorts each list once.
  const subscriptions = useMemo(
    () => (channelsState ? [...channelsState.subscriptions.values()] : []),
    [channelsState],
  );
  const topicChannelId =
    token?.kind === 'topic'
      ? (channelsState?.idByName.get(token.channelName!.toLowerCase()) ?? null)
      : null;
  const topics = useChannelTopics(accountId, topicChannelId);
  const emoji = useEmojiSuggestions(token);

  const suggestions = useMemo((): Suggestion[] => {
    if (!token) return [];
    if (token.kind === 'emoji')
      return emoji.map((e) => ({
        key: e.name,
        label: `:${e.name}:`,
        insert: `:${e.name}:`,
        emoji: e,
      }));
    if (token.kind === 'channel') {
      const current = destination?.type === 'stream' ? destination.streamId : null;
      return matchChannels(subscriptions, token.query, current).map((c) => ({
        key: `c${c.stream_id}`,
        label: `#${c.name}`,
        detail: c.description,
        insert: `#**${c.name}>`,
        keepOpen: true,
      }));
    }
    if (token.kind === 'topic') {
      if (topicChannelId === null) return [];
      const name = channelsState?.channels.get(topicChannelId)?.name ?? token.channelName!;
      return matchTopics(topics, token.query, { channelLink: true }).map((t) =>
        t.topic === null
          ? {
              key: 'channel',
              label: `#${name}`,
              detail: '(link to channel)',
              insert: channelSyntax(name),
            }
          : {
              key: `t${t.topic}`,
              label: `#${name} > ${t.topic}`,
              detail: t.isNew ? 'New' : undefined,
              insert: channelTopicSyntax(name, t.topic),
            },
      );
    }
    const account = selectActiveAccount(storeApi.getState());
    const ctx = mentionContext(account, destination, mode);
    const groups = account ? mentionableGroups(account) : [];
    return matchMentions(token.query, users, groups, ctx).map((c) => ({
      key:
        c.type === 'user' ? `u${c.user.user_id}` : c.type === 'group' ? `g${c.group.id}` : c.name,
      label: candidateName(c),
      detail:
        c.type === 'wildcard'
          ? c.description
          : c.type === 'group'
            ? c.group.description
            : undefined,
      // In a one-to-one conversation, mentioning the other person notifies nobody new: silent,
      // as the public app writes it.
      insert: mentionSyntax(
        c,
        !!token.silent ||
          (c.type === 'user' &&
            destination?.type === 'private' &&
            destination.to.length === 1 &&
            destination.to[0] === c.user.user_id),
        users,
      ),
    }));
  }, [
    token,
    emoji,
    channelsState,
    subscriptions,
    destination,
    topics,
    topicChannelId,
    users,
    mode,
    storeApi,
  ]);

  const open = !!token && suggestions.length > 0;

  /** The text changed (typed, pasted): find the token at the cursor anew. */
  const update = (value: string, cursor: number): string => {
    const jump = topicJump(value, cursor);
    if (jump) {
      replaceText(jump.text, jump.cursor);
      setToken(tokenAtCursor(jump.text, jump.cursor));
      return jump.text;
    }
    setToken(tokenAtCursor(value, cursor));
    return value;
  };

  const pick = (s: Suggestion) => {
    if (!token) return;
    const next = applyCompletion(text, token, s.insert, { space: !s.keepOpen });
    replaceText(next.text, next.cursor);
    setToken(s.keepOpen ? tokenAtCursor(next.text, next.cursor) : null);
  };

  const dismiss = (reason: 'escape' | 'blur') => {
    if (reason === 'escape' && token?.kind === 'topic') {
      // `#**channel>words` becomes `#**channel** words`, as Esc leaves it in the public app.
      const at = text.lastIndexOf('>', token.end);
      const head = `${text.slice(0, at)}** ${text.slice(at + 1, token.end)}`;
      replaceText(head + text.slice(token.end), head.length);
    }
    setToken(null);
  };

  const combobox = useComboboxList({
    items: suggestions,
    open,
    label: !token
      ? ''
      : token.kind === 'mention'
        ? 'People'
        : token.kind === 'channel'
          ? 'Channels'
          : token.kind === 'topic'
            ? 'Topics'
            : 'Emoji',
    itemKey: (s) => s.key,
    itemText: (s) => s.label,
    renderItem: (s) => (
      <>
        {s.emoji ? (
          <Emoji
            accountId={accountId}
            name={s.emoji.name}
            code={s.emoji.code}
            type={s.emoji.type}
            picture
          />
        ) : null}{' '}
        {s.label}
        {s.detail ? <span className="autocomplete-detail"> {s.detail}</span> : null}
      </>
    ),
    onPick: pick,
    onDismiss: dismiss,
    // `>` after a channel being completed goes straight to its topics, as in the public app.
    pickKeys: (e) => e.key === '>' && token?.kind === 'channel',
    // Above the box, as the public app shows it; below when the box is at the window's top.
    placement: 'top-start',
    multiline: true,
  });

  return {
    token,
    open,
    update,
    /** The message box's props around its own: the open list takes its keys first. */
    getFieldProps: combobox.getFieldProps,
    list: combobox.list,
    close: () => setToken(null),
  };
}
