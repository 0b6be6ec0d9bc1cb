// @vitest-environment node
// The versions the edit history view lists, from the server's message history: each version's
// channel is carried forward from where the message was sent (the server names one only on moves).
import { describe, expect, it } from 'vitest';
import { historyVersions } from '../../../renderer/features/messages/history-versions';
import type { MessageHistorySnapshot } from '../../../shared/api/endpoints';

const snap = (s: Partial<MessageHistorySnapshot>): MessageHistorySnapshot => ({
  topic: 't',
  content: 'c',
  rendered_content: '<p>c</p>',
  timestamp: 100,
  user_id: 1,
  ...s,
});

describe('historyVersions', () => {
  it('carries each version’s channel forward from the one the message was sent to', () => {
    const versions = historyVersions(
      [
        snap({ topic: 'a', timestamp: 1 }),
        snap({ topic: 'b', prev_topic: 'a', timestamp: 2, user_id: 2 }),
        snap({ topic: 'b', prev_stream: 10, stream: 20, timestamp: 3 }),
        snap({ topic: 'c', prev_topic: 'b', prev_content: 'old', timestamp: 4 }),
        snap({ topic: 'c', prev_stream: 20, stream: 30, timestamp: 5 }),
      ],
      30,
    );
    expect(versions.map((v) => [v.kind, v.streamId, v.topic])).toEqual([
      ['original', 10, 'a'],
      ['moved', 10, 'b'],
      ['moved', 20, 'b'],
      ['edited and moved', 20, 'c'],
      ['moved', 30, 'c'],
    ]);
    expect(versions[1]).toMatchObject({ userId: 2, prevTopic: 'a', contentChanged: false });
    expect(versions[2].prevStreamId).toBe(10);
    expect(versions[3].contentChanged).toBe(true);
  });

  it('gives direct messages no channel, and marks content edits', () => {
    const versions = historyVersions(
      [snap({ topic: '' }), snap({ topic: '', prev_content: 'c', content: 'd' })],
      undefined,
    );
    expect(versions.map((v) => [v.kind, v.streamId])).toEqual([
      ['original', undefined],
      ['edited', undefined],
    ]);
  });

  it('gives an edit the HTML it replaced, for marking the difference; a move none', () => {
    const versions = historyVersions(
      [
        snap({ rendered_content: '<p>one</p>' }),
        snap({
          prev_content: 'one',
          prev_rendered_content: '<p>one</p>',
          rendered_content: '<p>two</p>',
        }),
        // A server that leaves out prev_rendered_content: the version before is the one replaced.
        snap({ prev_content: 'two', rendered_content: '<p>three</p>' }),
        snap({ prev_topic: 't0', rendered_content: '<p>three</p>' }),
      ],
      1,
    );
    expect(versions.map((v) => v.prevRenderedContent)).toEqual([
      undefined,
      '<p>one</p>',
      '<p>two</p>',
      undefined,
    ]);
  });
});
