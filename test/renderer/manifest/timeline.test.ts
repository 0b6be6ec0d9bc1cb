// The pure helpers behind transcript following and search.
import { describe, expect, it } from 'vitest';
import {
  activeCueIndex,
  highlightMatches,
  searchCues,
} from '../../../renderer/features/manifest/timeline';
import type { Cue } from '../../../shared/manifest';

const cue = (startMs: number, endMs: number, text = ''): Cue => ({ startMs, endMs, text });

describe('activeCueIndex', () => {
  it('finds the cue being spoken, -1 before, between and after cues', () => {
    const cues = [cue(0, 1000), cue(2000, 3000), cue(3000, 4000)];
    expect(
      [-1, 0, 999, 1000, 1500, 2000, 2999, 3000, 3999, 4000].map((ms) => activeCueIndex(cues, ms)),
    ).toEqual([-1, 0, 0, -1, -1, 1, 1, 2, 2, -1]);
  });

  it('finds a long cue that started many cues earlier and still runs (overlapping speech)', () => {
    // A one-minute cue, then twenty short ones inside its first half.
    const cues = [
      cue(0, 60_000),
      ...Array.from({ length: 20 }, (_, i) => cue(i * 1000, i * 1000 + 500)),
    ];
    expect(activeCueIndex(cues, 19_200)).toBe(20); // inside the last short cue: the later start wins
    expect(activeCueIndex(cues, 19_700)).toBe(0); // between short cues: the long one is still running
    expect(activeCueIndex(cues, 45_000)).toBe(0);
    expect(activeCueIndex(cues, 60_000)).toBe(-1);
  });
});

describe('search', () => {
  const cues = [cue(0, 1, 'Straße und STRASSE'), cue(1, 2, 'a+b (c)'), cue(2, 3, 'nothing')];
  it('matches case-insensitively and literally, and marks what it matched', () => {
    expect(searchCues(cues, 'strasse', () => undefined)).toEqual([0]);
    expect(searchCues(cues, ' A+B ', () => undefined)).toEqual([1]);
    expect(searchCues(cues, '', () => undefined)).toEqual([0, 1, 2]);
    expect(searchCues(cues, 'ana', (c) => (c.text === 'nothing' ? 'Ana' : undefined))).toEqual([2]);
    expect(highlightMatches('a+b (c) A+B', 'a+b')).toEqual([
      { text: 'a+b', match: true },
      { text: ' (c) ', match: false },
      { text: 'A+B', match: true },
    ]);
    expect(highlightMatches('text', '')).toEqual([{ text: 'text', match: false }]);
  });
});
