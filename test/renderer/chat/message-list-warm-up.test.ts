// The message list's idle warm-up (features/messages/warm-up.ts) runs once and leaves the page as
// it found it: its sample row is laid out out of sight and removed.
import { describe, expect, it } from 'vitest';
import { warmMessageListWhenIdle } from '../../../renderer/features/messages/warm-up';

describe('warmMessageListWhenIdle', () => {
  it('resolves once, leaving no sample row in the document', async () => {
    const before = document.body.innerHTML;
    const appended: Node[] = [];
    const append = document.body.append.bind(document.body);
    document.body.append = (...nodes: Array<Node | string>) => {
      appended.push(...nodes.filter((n): n is Node => typeof n !== 'string'));
      append(...nodes);
    };
    try {
      const first = warmMessageListWhenIdle();
      expect(warmMessageListWhenIdle()).toBe(first);
      await first;
    } finally {
      document.body.append = append;
    }
    // The sample row was really put in the page (to be laid out), hidden from assistive tech, and
    // taken out again.
    expect(appended).toHaveLength(1);
    const sample = appended[0] as HTMLElement;
    expect(sample.getAttribute('aria-hidden')).toBe('true');
    expect(sample.querySelector('.message-row .content pre code')).not.toBeNull();
    expect(sample.isConnected).toBe(false);
    expect(document.body.innerHTML).toBe(before);
  });
});
