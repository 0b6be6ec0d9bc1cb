// markdown-it inline rules for the chat syntax that plain Markdown lacks: user mentions
// (@**Name**, @**Name|id**, silent @_**Name**), group mentions (@*group*, @_*group*), wildcards
// (@**all**, @**everyone**, @**channel**, @**stream**, @**topic**), channel links (#**channel**,
// #**channel>topic**) and :emoji: names. Names are resolved through the lookup passed in the render
// env; unknown names stay literal text. What was mentioned is recorded in env.found so the sender
// can set the mentioned flags.
import type { MarkdownIt, StateInline, Token } from 'markdown-it';
import type { Linkifier } from './linkifiers';
import { encodeHashComponent } from '../../shared/narrow/link';

export interface MentionUser {
  id: number;
  full_name: string;
}
export interface MentionGroup {
  id: number;
  name: string;
}
export interface MentionChannel {
  id: number;
  name: string;
}

/** Name resolution for one render; implemented over the database by render.ts's caller. */
export interface MentionLookup {
  userByName(name: string): MentionUser[];
  userById(id: number): MentionUser | undefined;
  groupByName(name: string): MentionGroup | undefined;
  channelByName(name: string): MentionChannel | undefined;
  emojiCode(name: string): string | undefined;
  /** The image URL of an active custom emoji by name (custom emoji win over unicode names). */
  customEmojiUrl?(name: string): string | undefined;
  /** The realm's linkifiers (linkifiers.ts); none when absent. */
  linkifiers?(): readonly Linkifier[];
}

export interface MentionsFound {
  userIds: Set<number>;
  groupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

export interface MentionEnv {
  lookup: MentionLookup;
  found: MentionsFound;
}

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

// @**...** or @_**...**, then @*...* or @_*...*; names cannot contain '*' or newlines.
const USER_MENTION = /^@(_?)\*\*([^*\n]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*\n]+)\*/;
const CHANNEL_LINK = /^#\*\*([^*\n]+)\*\*/;
const EMOJI = /^:([a-z0-9_+-]+):/;

function resolveUser(lookup: MentionLookup, text: string): MentionUser | undefined {
  const bar = text.lastIndexOf('|');
  if (bar !== -1) {
    const id = Number(text.slice(bar + 1));
    if (Number.isInteger(id)) {
      const user = lookup.userById(id);
      // The id form disambiguates equal names; it also works with only the id (@**|12**).
      if (user) return user;
    }
  }
  const matches = lookup.userByName(text);
  return matches.length === 1 ? matches[0] : undefined;
}

function mentionRule(state: StateInline, silent: boolean): boolean {
  const env = state.env as unknown as MentionEnv;
  if (!env?.lookup) return false;
  const src = state.src.slice(state.pos);
  const first = src.charCodeAt(0);
  if (first === 0x40 /* @ */) {
    // A mention must start a word: "a@**b**" is not one.
    if (state.pos > 0 && /[\w]/.test(state.src[state.pos - 1])) return false;
    const user = USER_MENTION.exec(src);
    if (user) {
      const isSilent = user[1] === '_';
      const name = user[2].trim();
      if (STREAM_WILDCARDS.has(name) || name === 'topic') {
        if (!silent) {
          if (!isSilent) {
            if (name === 'topic') env.found.topicWildcard = true;
            else env.found.streamWildcard = true;
          }
          const token = state.push('chat_wildcard', '', 0);
          token.meta = { name, silent: isSilent };
        }
        state.pos += user[0].length;
        return true;
      }
      const target = resolveUser(env.lookup, name);
      if (!target) return false;
      if (!silent) {
        if (!isSilent) env.found.userIds.add(target.id);
        const token = state.push('chat_user_mention', '', 0);
        token.meta = { user: target, silent: isSilent };
      }
      state.pos += user[0].length;
      return true;
    }
    const group = GROUP_MENTION.exec(src);
    if (group) {
      const target = env.lookup.groupByName(group[2].trim());
      if (!target) return false;
      const isSilent = group[1] === '_';
      if (!silent) {
        if (!isSilent) env.found.groupIds.add(target.id);
        const token = state.push('chat_group_mention', '', 0);
        token.meta = { group: target, silent: isSilent };
      }
      state.pos += group[0].length;
      return true;
    }
    return false;
  }
  if (first === 0x23 /* # */) {
    const link = CHANNEL_LINK.exec(src);
    if (!link) return false;
    const text = link[1];
    const gt = text.indexOf('>');
    const channelName = gt === -1 ? text : text.slice(0, gt);
    const channel = env.lookup.channelByName(channelName);
    if (!channel) return false;
    if (!silent) {
      const token = state.push('chat_channel_link', '', 0);
      token.meta = { channel, topic: gt === -1 ? null : text.slice(gt + 1) };
    }
    state.pos += link[0].length;
    return true;
  }
  if (first === 0x3a /* : */) {
    const emoji = EMOJI.exec(src);
    if (!emoji) return false;
    const customUrl = env.lookup.customEmojiUrl?.(emoji[1]);
    if (customUrl) {
      if (!silent) {
        const token = state.push('chat_custom_emoji', '', 0);
        token.meta = { name: emoji[1], url: customUrl };
      }
      state.pos += emoji[0].length;
      return true;
    }
    const code = env.lookup.emojiCode(emoji[1]);
    if (!code) return false;
    if (!silent) {
      const token = state.push('chat_emoji', '', 0);
      token.meta = { name: emoji[1], code };
    }
    state.pos += emoji[0].length;
    return true;
  }
  return false;
}

/** Narrow-link slug as the web app builds it: "<id>-<name with unsafe characters encoded>". */
export function channelSlug(channel: MentionChannel): string {
  return `${channel.id}-${encodeHashComponent(channel.name)}`;
}

export const mentionsPlugin = (md: MarkdownIt): void => {
  md.inline.ruler.before('emphasis', 'chat_mentions', mentionRule);
  const escape = md.utils.escapeHtml;
  const rules = md.renderer.rules;
  rules.chat_user_mention = (tokens: Token[], idx: number) => {
    const { user, silent } = tokens[idx].meta as { user: MentionUser; silent: boolean };
    const cls = silent ? 'user-mention silent' : 'user-mention';
    return `<span class="${cls}" data-user-id="${user.id}">${silent ? '' : '@'}${escape(user.full_name)}</span>`;
  };
  rules.chat_wildcard = (tokens: Token[], idx: number) => {
    const { name, silent } = tokens[idx].meta as { name: string; silent: boolean };
    const at = silent ? '' : '@';
    if (name === 'topic') {
      return `<span class="topic-mention${silent ? ' silent' : ''}">${at}topic</span>`;
    }
    return `<span class="user-mention channel-wildcard-mention${silent ? ' silent' : ''}" data-user-id="*">${at}${escape(name)}</span>`;
  };
  rules.chat_group_mention = (tokens: Token[], idx: number) => {
    const { group, silent } = tokens[idx].meta as { group: MentionGroup; silent: boolean };
    const cls = silent ? 'user-group-mention silent' : 'user-group-mention';
    return `<span class="${cls}" data-user-group-id="${group.id}">${silent ? '' : '@'}${escape(group.name)}</span>`;
  };
  rules.chat_channel_link = (tokens: Token[], idx: number) => {
    const { channel, topic } = tokens[idx].meta as {
      channel: MentionChannel;
      topic: string | null;
    };
    const base = `/#narrow/channel/${channelSlug(channel)}`;
    if (topic === null) {
      return `<a class="stream" data-stream-id="${channel.id}" href="${escape(base)}">#${escape(channel.name)}</a>`;
    }
    const href = `${base}/topic/${encodeHashComponent(topic)}`;
    return `<a class="stream-topic" data-stream-id="${channel.id}" href="${escape(href)}">#${escape(channel.name)} &gt; ${escape(topic)}</a>`;
  };
  rules.chat_custom_emoji = (tokens: Token[], idx: number) => {
    const { name, url } = tokens[idx].meta as { name: string; url: string };
    return `<img alt=":${escape(name)}:" class="emoji" src="${escape(url)}" title="${escape(name.replace(/_/g, ' '))}">`;
  };
  rules.chat_emoji = (tokens: Token[], idx: number) => {
    const { name, code } = tokens[idx].meta as { name: string; code: string };
    const title = escape(name.replace(/_/g, ' '));
    return `<span aria-label="${title}" class="emoji emoji-${escape(code)}" role="img" title="${title}">:${escape(name)}:</span>`;
  };
};
