// Marking a whole topic or channel read or unread goes batch after batch, as the public web app does:
// each request goes on after the last message the previous one processed, until the server says it
// reached the newest (one request of a few thousand would leave a long topic half done).
import { describe, expect, it } from 'vitest';
import { channelNarrow } from '../../../shared/narrow';
import { markNarrowRead, markTopicUnread } from '../../../renderer/features/topics/topic-actions';
import { installFakeApi } from './harness';

/** Main answering as the server does for a narrow of `total` messages with ids 1..total. */
function serverOf(total: number) {
  return (input: unknown) => {
    const { anchor, includeAnchor, numAfter } = input as {
      anchor: number | 'oldest';
      includeAnchor: boolean;
      numAfter: number;
    };
    const first = anchor === 'oldest' ? 1 : includeAnchor ? anchor : anchor + 1;
    const last = Math.min(total, first + numAfter - 1);
    return {
      result: 'success',
      msg: '',
      processed_count: last - first + 1,
      updated_count: last - first + 1,
      first_processed_id: first,
      last_processed_id: last,
      found_oldest: anchor === 'oldest',
      found_newest: last === total,
    };
  };
}

describe('marking a whole narrow', () => {
  it('marks a long topic unread in batches until the newest message', async () => {
    const api = installFakeApi({ updateFlagsForNarrow: serverOf(2500) });
    await markTopicUnread({ accountId: 'a', streamId: 1, topic: 'plans' });
    const anchors = api.updateFlagsForNarrow!.mock.calls.map(
      ([input]) => (input as { anchor: unknown }).anchor,
    );
    expect(anchors).toEqual(['oldest', 1000, 2000]);
    for (const [input] of api.updateFlagsForNarrow!.mock.calls)
      expect(input).toMatchObject({ op: 'remove', flag: 'read' });
  });

  it('marks a channel read in batches, and stops at once when one batch reaches the newest', async () => {
    const long = installFakeApi({ updateFlagsForNarrow: serverOf(1500) });
    await markNarrowRead('a', channelNarrow(1));
    expect(long.updateFlagsForNarrow).toHaveBeenCalledTimes(2);
    expect(long.updateFlagsForNarrow).toHaveBeenLastCalledWith(
      expect.objectContaining({ anchor: 1000, includeAnchor: false, op: 'add', flag: 'read' }),
    );
    const short = installFakeApi({ updateFlagsForNarrow: serverOf(10) });
    await markNarrowRead('a', channelNarrow(1));
    expect(short.updateFlagsForNarrow).toHaveBeenCalledTimes(1);
  });
});
