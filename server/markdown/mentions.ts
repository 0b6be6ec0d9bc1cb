// markdown-it inline rules for the chat syntax that plain Markdown lacks: user mentions
// (@**Name**, @**Name|id**, silent @_**Name**), group mentions (@*group*, @_*group*), wildcards
// (@**all**, @**everyone**, @**channel**, @**stream**, @**topic**) and channel links (#**channel**,
// #**channel>topic**). Names are resolved through the lookup passed in the render env; unknown
// names stay literal text. Mentions inside quotes are silent, as on the public server. What was
// mentioned is recorded in env.found so the sender can set the mentioned flags.
import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';
import type { Linkifier } from './linkifiers';
import { encodeHashComponent } from '../../shared/narrow/link';
import { escapeAttribute, escapeText } from './escape';

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
  /** The latest message of a topic (for topic links' /with/ID); undefined for an empty topic. */
  latestMessageInTopic?(channelId: number, topic: string): number | undefined;
  /** The image URL of an active custom emoji by name (custom emoji win over unicode names). */
  customEmojiUrl?(name: string): string | undefined;
  /** The realm's linkifiers (linkifiers.ts); none when absent. */
  linkifiers?(): readonly Linkifier[];
  /** The sender's translate_emoticons setting (":)" becomes :smile:); off when absent. */
  translateEmoticons?(): boolean;
  /**
   * What is known of an uploaded image by its path_id (after /user_uploads/), for its preview:
   * undefined for a file that is no image the server can preview. When this member is absent
   * (no thumbnailing), uploads with image extensions preview as the file itself.
   */
  uploadImage?(pathId: string): UploadImage | undefined;
  /** The realm's own URL: links to its narrows and uploads become relative. */
  realmUrl?(): string | undefined;
  /** The camo proxy external image and video previews go through; none when absent. */
  imageProxy?(): CamoConfig | undefined;
}

/** A camo image proxy: previews load `${url}${hmac-sha1(key, URL) hex}/${hex of the URL}`. */
export interface CamoConfig {
  url: string;
  key: string;
}

/** An uploaded image's preview data; without thumbnailUrl the thumbnail is still being made. */
export interface UploadImage {
  width: number;
  height: number;
  contentType: string;
  thumbnailUrl?: string;
  animated?: boolean;
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
  /** Set while the inline content being parsed is inside a blockquote. */
  inQuote?: boolean;
  /** Every link href the rendering writes (channel and message links count, as on the public server). */
  links?: string[];
}

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

// @**...** or @_**...**, then @*...* or @_*...*; names cannot contain '*' or newlines.
const USER_MENTION = /^@(_?)\*\*([^*\n]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*\n]+)\*/;
const CHANNEL_LINK = /^#\*\*([^*\n]+)\*\*/;

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
      const isSilent = user[1] === '_' || env.inQuote === true;
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
      const isSilent = group[1] === '_' || env.inQuote === true;
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
      let topic = gt === -1 ? null : text.slice(gt + 1);
      // #**channel>topic@123** links to one message.
      const near = topic === null ? null : /^(.+)@(\d+)$/.exec(topic);
      if (near) topic = near[1];
      const withId =
        topic !== null && !near ? env.lookup.latestMessageInTopic?.(channel.id, topic) : undefined;
      token.meta = { channel, topic, near: near ? Number(near[2]) : undefined, withId };
    }
    state.pos += link[0].length;
    return true;
  }
  return false;
}

/** Narrow-link slug as the web app builds it: "<id>-<name with unsafe characters encoded>". */
export function channelSlug(channel: MentionChannel): string {
  return `${channel.id}-${encodeHashComponent(channel.name)}`;
}

// markdown-it's inline stage, also telling the rules whether the content is inside a quote.
function inlineWithQuotes(state: StateCore): void {
  const env = state.env as unknown as MentionEnv;
  let depth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') depth++;
    else if (token.type === 'blockquote_close') depth--;
    else if (token.type === 'inline') {
      env.inQuote = depth > 0;
      token.children ??= [];
      state.md.inline.parse(token.content, state.md, state.env, token.children);
    }
  }
  env.inQuote = false;
}

export const mentionsPlugin = (md: MarkdownIt): void => {
  md.core.ruler.at('inline', inlineWithQuotes);
  md.inline.ruler.before('emphasis', 'chat_mentions', mentionRule);
  const escape = escapeText;
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
  rules.chat_channel_link = (tokens: Token[], idx: number, _options, env) => {
    const { channel, topic, near, withId } = tokens[idx].meta as {
      channel: MentionChannel;
      topic: string | null;
      near?: number;
      withId?: number;
    };
    const base = `/#narrow/channel/${channelSlug(channel)}`;
    (env as unknown as MentionEnv).links?.push(base);
    if (topic === null) {
      return `<a class="stream" data-stream-id="${channel.id}" href="${escapeAttribute(base)}">#${escape(channel.name)}</a>`;
    }
    const topicUrl = `${base}/topic/${encodeHashComponent(topic)}`;
    if (near !== undefined) {
      return `<a class="message-link" href="${escapeAttribute(`${topicUrl}/near/${near}`)}">#${escape(channel.name)} &gt; ${escape(topic)} @ 💬</a>`;
    }
    // Topic links carry a message of the topic (its latest), so they survive the topic's moves.
    const href = withId === undefined ? topicUrl : `${topicUrl}/with/${withId}`;
    return `<a class="stream-topic" data-stream-id="${channel.id}" href="${escapeAttribute(href)}">#${escape(channel.name)} &gt; ${escape(topic)}</a>`;
  };
};
