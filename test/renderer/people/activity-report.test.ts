// The page tells main about the person's activity (browser mode has no system idle time): once at
// start, on input at most every 15 s, and whenever the page is shown or hidden.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportPageActivity } from '../../../renderer/shell/activity-report';
import type { Api } from '../../../renderer/bridge/api';

afterEach(() => vi.useRealTimers());

describe('page activity reports', () => {
  it('reports start, throttled input and visibility changes, and stops when disposed', () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    const reportActivity = vi.fn(async () => null);
    const stop = reportPageActivity({ reportActivity } as unknown as Api);
    expect(reportActivity).toHaveBeenLastCalledWith({ visible: true, userInput: false });

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    expect(reportActivity).toHaveBeenLastCalledWith({ visible: true, userInput: true });
    document.dispatchEvent(new Event('pointerdown'));
    expect(reportActivity).toHaveBeenCalledTimes(2);

    vi.setSystemTime(1_000_000 + 15_001);
    document.dispatchEvent(new Event('pointerdown'));
    expect(reportActivity).toHaveBeenCalledTimes(3);

    document.dispatchEvent(new Event('visibilitychange'));
    expect(reportActivity).toHaveBeenCalledTimes(4);
    expect(reportActivity).toHaveBeenLastCalledWith({ visible: true, userInput: false });

    stop();
    vi.setSystemTime(1_000_000 + 60_000);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'b' }));
    expect(reportActivity).toHaveBeenCalledTimes(4);
  });
});
