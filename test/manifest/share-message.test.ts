// The shared meeting's message and the command line's --to destination (shared/manifest/share.ts).
import { describe, expect, it } from 'vitest';
import { meetingShareContent, meetingSummaryLine, parseShareTarget } from '../../shared/manifest';

describe('meeting share message', () => {
  it('is a summary line, then one link per file named by its file name', () => {
    expect(
      meetingShareContent({ title: 'Weekly planning', durationMs: 3_723_000 }, [
        { name: 'manifest.json', url: '/user_uploads/2/ab/manifest.json' },
        { name: 'my recording.opus', url: '/user_uploads/2/cd/my recording (1).opus' },
      ]),
    ).toBe(
      [
        'Meeting recording: Weekly planning (1 h 2 min 3 s)',
        '[manifest.json](/user_uploads/2/ab/manifest.json)',
        '[my recording.opus](/user_uploads/2/cd/my%20recording%20%281%29.opus)',
      ].join('\n'),
    );
  });

  it('keeps the title on one line, mentions no one, and names an untitled meeting', () => {
    const line = meetingSummaryLine({ title: 'Retro\n@**all** and @*staff*' });
    expect(line).toBe('Meeting recording: Retro @\u200b**all** and @\u200b*staff*');
    expect(line).not.toMatch(/@\*/);
    expect(meetingSummaryLine({ durationMs: -1 })).toBe('Meeting recording: Untitled meeting');
  });
});

describe('--to', () => {
  it('reads a channel whose name and topic have spaces, and direct messages', () => {
    expect(parseShareTarget('channel:design team topic:Weekly planning')).toEqual({
      type: 'channel',
      channel: 'design team',
      topic: 'Weekly planning',
    });
    expect(parseShareTarget('dm:ana@example.com, ben@example.com')).toEqual({
      type: 'direct',
      emails: ['ana@example.com', 'ben@example.com'],
    });
  });

  it('refuses what is neither, a channel without a topic, and a bad address', () => {
    expect(() => parseShareTarget('general')).toThrow(/neither/);
    expect(() => parseShareTarget('channel:general')).toThrow(/needs a topic/);
    expect(() => parseShareTarget('channel:general topic: ')).toThrow(/topic is empty/);
    expect(() => parseShareTarget('dm:ana')).toThrow(/not an email address/);
  });
});
