// Transcript payload parsers (manifest-decisions §5).
import { describe, expect, it } from 'vitest';
import {
  displayableChapters,
  normalizeTranscriptFormat,
  parseTranscript,
} from '../../shared/manifest';

const speakers = [
  { id: 's1', label: 'Ana' },
  { id: 's2', label: 'Ben' },
];

describe('WebVTT', () => {
  it('parses cues, voice spans matched to label then id, markup and entities removed', () => {
    const vtt = [
      'WEBVTT - meeting',
      '',
      'NOTE a comment',
      'over two lines',
      '',
      'STYLE',
      '::cue { color: red }',
      '',
      'intro',
      '00:00.500 --> 00:05.000 align:start',
      '<v Ana>Hello <b>team</b> &amp; friends</v>',
      '',
      '01:00:01.000 --> 01:00:02.250',
      '<v.loud s2>By id',
      '',
      '00:00:03.000 --> 00:00:04.000',
      '<v Carol>Unknown voice',
      'second line',
      '',
      '00:00:05.000 --> 00:00:06.000',
      'No voice <00:00:05.500>timed',
    ].join('\r\n');
    const result = parseTranscript('WebVTT', vtt, speakers);
    expect(result).toEqual({
      ok: true,
      timed: true,
      cues: [
        { startMs: 500, endMs: 5000, speakerId: 's1', text: 'Hello team & friends' },
        { startMs: 3_601_000, endMs: 3_602_250, speakerId: 's2', text: 'By id' },
        { startMs: 3000, endMs: 4000, voice: 'Carol', text: 'Unknown voice\nsecond line' },
        { startMs: 5000, endMs: 6000, text: 'No voice timed' },
      ],
    });
  });

  it('rejects a file without the WEBVTT header and a bad timing line', () => {
    expect(parseTranscript('text/vtt', '1\n00:00.000 --> 00:01.000\nhi\n', speakers)).toMatchObject(
      { ok: false },
    );
    expect(
      parseTranscript('webvtt', 'WEBVTT\n\n00:00 --> 00:01.000\nhi\n', speakers),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/timing/),
    });
  });
});

describe('SRT', () => {
  it('parses SubRip blocks and strips tags', () => {
    const srt =
      '1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i>\nthere\n\n2\n00:01:00,000 --> 00:01:01,000\nBye\n';
    expect(parseTranscript('application/x-subrip', srt, speakers)).toEqual({
      ok: true,
      timed: true,
      cues: [
        { startMs: 1000, endMs: 2500, text: 'Hello\nthere' },
        { startMs: 60_000, endMs: 61_000, text: 'Bye' },
      ],
    });
    expect(parseTranscript('srt', '1\nnot a time\ntext\n', speakers)).toMatchObject({ ok: false });
  });
});

describe('segments-json', () => {
  it('maps speaker ids and keeps word timings', () => {
    const json = JSON.stringify({
      segments: [
        {
          startMs: 0,
          endMs: 900,
          speaker: 's2',
          text: 'Hi all',
          words: [{ startMs: 0, endMs: 400, text: 'Hi', conf: 1 }],
          extra: 1,
        },
        { startMs: 900, endMs: 1200, speaker: 'guest', text: 'Hello' },
        { startMs: 1200, endMs: 1500, text: 'Nobody' },
      ],
    });
    expect(parseTranscript('application/vnd.meeting-segments+json', json, speakers)).toEqual({
      ok: true,
      timed: true,
      cues: [
        {
          startMs: 0,
          endMs: 900,
          speakerId: 's2',
          text: 'Hi all',
          words: [{ startMs: 0, endMs: 400, text: 'Hi' }],
        },
        { startMs: 900, endMs: 1200, voice: 'guest', text: 'Hello' },
        { startMs: 1200, endMs: 1500, text: 'Nobody' },
      ],
    });
  });

  it('explains what is wrong with a malformed payload', () => {
    expect(
      parseTranscript(
        'segments-json',
        '{"segments":[{"startMs":"0","endMs":1,"text":""}]}',
        speakers,
      ),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/segments\/0\/startMs/),
    });
    expect(parseTranscript('segments-json', 'nope', speakers)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/JSON/),
    });
  });
});

describe('text and formats', () => {
  it('plain text is untimed, one cue per non-empty line', () => {
    expect(parseTranscript('text/plain', 'one\n\n  two  \n', speakers)).toEqual({
      ok: true,
      timed: false,
      cues: [
        { startMs: 0, endMs: 0, text: 'one' },
        { startMs: 0, endMs: 0, text: 'two' },
      ],
    });
  });

  it('other formats are "format not supported"; invalid UTF-8 is reported', () => {
    expect(parseTranscript('docx', 'x', speakers)).toEqual({
      ok: false,
      unsupported: true,
      reason: 'format not supported',
    });
    expect(parseTranscript('text', new Uint8Array([0xff]), speakers)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/UTF-8/),
    });
    expect(normalizeTranscriptFormat('TEXT/VTT')).toBe('webvtt');
    expect(normalizeTranscriptFormat('vtt')).toBeNull();
  });
});

describe('hostile payloads', () => {
  // Each of these took seconds (quadratic regexp backtracking) before markup stripping and voice
  // spans stopped every scan at the next '<'; at this size a regression takes ~10 s and fails on the
  // test timeout.
  const HUGE = 100_000;
  const cue = (payload: string) => `WEBVTT\n\n00:00.000 --> 00:01.000\n${payload}\n`;

  it('unclosed "<" runs and voice spans without ">" are parsed, not stuck on', () => {
    const lessThans = parseTranscript('webvtt', cue('<'.repeat(HUGE)), speakers);
    expect(lessThans).toMatchObject({ ok: true, cues: [{ text: '<'.repeat(HUGE) }] });
    const openVoice = parseTranscript('webvtt', cue('<v' + ' '.repeat(HUGE) + 'Ana'), speakers);
    expect(openVoice).toMatchObject({ ok: true, cues: [{ text: expect.stringMatching(/Ana$/) }] });
    expect(openVoice.ok && openVoice.cues[0].speakerId).toBeUndefined();
    const manyVoices = parseTranscript('webvtt', cue('<v '.repeat(HUGE / 3)), speakers);
    expect(manyVoices.ok).toBe(true);
    const srt = parseTranscript(
      'srt',
      `1\n00:00:00,000 --> 00:00:01,000\n${'<a'.repeat(HUGE)}`,
      [],
    );
    expect(srt.ok).toBe(true);
  });

  it('markup is still removed and a voice span with several spaces still names its speaker', () => {
    const parsed = parseTranscript(
      'webvtt',
      cue('<v.loud   Ben  ><b>Hi</b> &lt;there&gt;</v>'),
      speakers,
    );
    expect(parsed).toMatchObject({ ok: true, cues: [{ speakerId: 's2', text: 'Hi <there>' }] });
  });
});

describe('chapters', () => {
  it('shows only chapters with a string title and an integer startMs', () => {
    expect(
      displayableChapters([
        { title: 'Status', startMs: 0, colour: 'red' },
        { title: 'No start' },
        { title: 3, startMs: 10 },
        { title: 'Fraction', startMs: 1.5 },
        'Open work',
        { title: 'Open work', startMs: 11176 },
      ]),
    ).toEqual([
      { title: 'Status', startMs: 0 },
      { title: 'Open work', startMs: 11176 },
    ]);
    expect(displayableChapters(undefined)).toEqual([]);
  });
});
