// @vitest-environment node
// Local echoes are matched to narrows with the same realm lookups as stored messages: `in:home`
// leaves out echoes to muted channels and topics, `is:muted` shows them, and muting or unmuting
// moves echoes already shown, as it moves the messages around them.
import { describe, expect, it } from 'vitest';
import { selectOutboxForNarrow } from '../../../renderer/store';
import type { ServerEvent } from '../../../shared/api/events';
import { narrowKey } from '../../../shared/narrow';
import { eventId, setupStore, DESIGN, EMMA, GENERAL } from './fixtures';

const HOME = narrowKey([{ operator: 'in', operand: 'home' }]);
const MUTED = narrowKey([{ operator: 'is', operand: 'muted' }]);
const FOLLOWED = narrowKey([{ operator: 'is', operand: 'followed' }]);

function userTopic(streamId: number, topic: string, policy: 0 | 1 | 2 | 3): ServerEvent {
  return {
    id: eventId(),
    type: 'user_topic',
    stream_id: streamId,
    topic_name: topic,
    last_updated: 1,
    visibility_policy: policy,
  };
}

function channelMuted(streamId: number, muted: boolean): ServerEvent {
  return {
    id: eventId(),
    type: 'subscription',
    op: 'update',
    stream_id: streamId,
    property: 'is_muted',
    value: muted,
  };
}

function withEchoes() {
  const t = setupStore();
  const s = t.store.getState();
  s.addLocalEcho('a', {
    localId: 'planning',
    destination: { type: 'stream', streamId: GENERAL, topic: 'planning' },
    content: 'plan',
  });
  s.addLocalEcho('a', {
    localId: 'lunch',
    destination: { type: 'stream', streamId: GENERAL, topic: 'lunch' },
    content: 'food?',
  });
  s.addLocalEcho('a', {
    localId: 'logo',
    destination: { type: 'stream', streamId: DESIGN, topic: 'logo' },
    content: 'new logo',
  });
  s.addLocalEcho('a', {
    localId: 'dm',
    destination: { type: 'private', to: [EMMA] },
    content: 'psst',
  });
  const echoes = (key: string) => selectOutboxForNarrow(t.account(), key).map((e) => e.localId);
  return { ...t, echoes };
}

describe('local echoes and muting', () => {
  it('leaves echoes to muted topics and channels out of in:home and shows them in is:muted', () => {
    const t = withEchoes();
    expect(t.echoes(HOME)).toEqual(['planning', 'lunch', 'logo', 'dm']);
    expect(t.echoes(MUTED)).toEqual([]);

    t.apply(userTopic(GENERAL, 'lunch', 1), channelMuted(DESIGN, true));
    expect(t.echoes(HOME)).toEqual(['planning', 'dm']);
    expect(t.echoes(MUTED)).toEqual(['lunch', 'logo']);

    // Unmuting the topic inside the muted channel brings it back home; following it too.
    t.apply(userTopic(DESIGN, 'logo', 3), userTopic(GENERAL, 'lunch', 0));
    expect(t.echoes(HOME)).toEqual(['planning', 'lunch', 'logo', 'dm']);
    expect(t.echoes(MUTED)).toEqual([]);
    expect(t.echoes(FOLLOWED)).toEqual(['logo']);
  });

  it('resolves channel names and user emails as stored messages do', () => {
    const t = withEchoes();
    const design = t.account().channels.channels.get(DESIGN)!.name;
    const emma = t.account().users.users.get(EMMA)!.email;
    expect(t.echoes(narrowKey([{ operator: 'channel', operand: design }]))).toEqual(['logo']);
    expect(t.echoes(narrowKey([{ operator: 'dm', operand: emma }]))).toEqual(['dm']);
  });
});
