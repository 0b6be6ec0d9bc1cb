// Channels (every channel the user can see) and the user's subscriptions (a channel plus personal
// settings). Each record is replaced when it changes; the maps are mutated in place.
import type { Channel, RegisterResponse, Subscription } from '../../../shared/api/types';
import type { ServerEvent, ServerEventType } from '../../../shared/api/events';
import type { EventContext } from '../context';
import type { SliceDraft } from '../sliceDraft';

export interface ChannelsState {
  readonly version: number;
  readonly channels: Map<number, Channel>;
  readonly subscriptions: Map<number, Subscription>;
  /** Lower-cased channel name -> id, for narrows and search by name. */
  readonly idByName: Map<string, number>;
}

export function emptyChannels(): ChannelsState {
  return { version: 0, channels: new Map(), subscriptions: new Map(), idByName: new Map() };
}

function putChannel(s: ChannelsState, channel: Channel): void {
  const old = s.channels.get(channel.stream_id);
  if (old && old.name.toLowerCase() !== channel.name.toLowerCase()) {
    s.idByName.delete(old.name.toLowerCase());
  }
  s.channels.set(channel.stream_id, channel);
  s.idByName.set(channel.name.toLowerCase(), channel.stream_id);
}

/** Only the channel fields of a subscription object. */
function channelOf(sub: Subscription): Channel {
  const {
    color: _c,
    is_muted: _m,
    in_home_view: _h,
    pin_to_top: _p,
    desktop_notifications: _d,
    audible_notifications: _a,
    push_notifications: _pu,
    email_notifications: _e,
    wildcard_mentions_notify: _w,
    ...channel
  } = sub;
  return channel;
}

export function channelsFromRegister(reg: RegisterResponse): ChannelsState {
  const s = emptyChannels();
  for (const c of reg.streams ?? []) putChannel(s, c);
  for (const c of reg.never_subscribed ?? []) putChannel(s, c);
  for (const sub of reg.unsubscribed ?? []) putChannel(s, channelOf(sub));
  for (const sub of reg.subscriptions ?? []) {
    putChannel(s, channelOf(sub));
    s.subscriptions.set(sub.stream_id, sub);
  }
  return s;
}

function updateSubscribers(
  d: SliceDraft<ChannelsState>,
  streamIds: readonly number[],
  userIds: readonly number[],
  add: boolean,
) {
  const change = (list: number[] | undefined): number[] | undefined => {
    if (!list) return undefined;
    const set = new Set(list);
    for (const u of userIds) {
      if (add) set.add(u);
      else set.delete(u);
    }
    return [...set];
  };
  for (const id of streamIds) {
    const sub = d.read.subscriptions.get(id);
    if (sub?.subscribers)
      d.write.subscriptions.set(id, { ...sub, subscribers: change(sub.subscribers) });
    const channel = d.read.channels.get(id);
    if (channel?.subscribers) {
      d.write.channels.set(id, { ...channel, subscribers: change(channel.subscribers) });
    }
  }
}

/** The event types handleChannelsEvent reacts to (the dispatcher calls it for these only). */
export const channelsEventTypes: readonly ServerEventType[] = ['subscription', 'stream'];

export function handleChannelsEvent(
  d: SliceDraft<ChannelsState>,
  ev: ServerEvent,
  _ctx: EventContext,
): void {
  switch (ev.type) {
    case 'subscription':
      switch (ev.op) {
        case 'add':
          for (const sub of ev.subscriptions) {
            putChannel(d.write, channelOf(sub));
            d.write.subscriptions.set(sub.stream_id, sub);
          }
          return;
        case 'remove':
          for (const { stream_id } of ev.subscriptions) {
            if (d.read.subscriptions.has(stream_id)) d.write.subscriptions.delete(stream_id);
          }
          return;
        case 'update': {
          const sub = d.read.subscriptions.get(ev.stream_id);
          if (!sub) return;
          const next: Record<string, unknown> = { ...sub, [ev.property]: ev.value };
          // in_home_view is the legacy inverse of is_muted; keep both consistent whichever arrives.
          if (ev.property === 'is_muted') next.in_home_view = !ev.value;
          if (ev.property === 'in_home_view') next.is_muted = !ev.value;
          d.write.subscriptions.set(ev.stream_id, next as unknown as Subscription);
          return;
        }
        case 'peer_add':
        case 'peer_remove':
          updateSubscribers(d, ev.stream_ids, ev.user_ids, ev.op === 'peer_add');
          return;
      }
      return;
    case 'stream':
      switch (ev.op) {
        case 'create':
          for (const c of ev.streams) putChannel(d.write, c);
          return;
        case 'delete': {
          const ids = ev.stream_ids ?? ev.streams?.map((s) => s.stream_id) ?? [];
          for (const id of ids) {
            const c = d.read.channels.get(id);
            if (c) {
              d.write.channels.delete(id);
              d.write.idByName.delete(c.name.toLowerCase());
            }
            if (d.read.subscriptions.has(id)) d.write.subscriptions.delete(id);
          }
          return;
        }
        case 'update': {
          const patch: Record<string, unknown> = { [ev.property]: ev.value };
          if (ev.rendered_description !== undefined) {
            patch.rendered_description = ev.rendered_description;
          }
          if (ev.history_public_to_subscribers !== undefined) {
            patch.history_public_to_subscribers = ev.history_public_to_subscribers;
          }
          if (ev.is_web_public !== undefined) patch.is_web_public = ev.is_web_public;
          const channel = d.read.channels.get(ev.stream_id);
          if (channel) putChannel(d.write, { ...channel, ...patch } as Channel);
          const sub = d.read.subscriptions.get(ev.stream_id);
          if (sub) d.write.subscriptions.set(ev.stream_id, { ...sub, ...patch } as Subscription);
          return;
        }
      }
      return;
    default:
      return;
  }
}
