// The viewer's components over sessions built from the fixtures: a verified one (player present,
// transcript follows the audio, seeking) and a mismatched one (no player, the reason shown).
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManifestView } from '../../../renderer/features/manifest/ManifestView';
import type { ManifestSession } from '../../../shared/ipc/manifest';
import { roleName } from '../../../renderer/features/manifest/timeline';
import { fakeTranscriptLayout } from './support/layout';
import {
  invalidMatchedSession,
  invalidSession,
  mismatchedSession,
  verifiedSession,
} from './support/reports';

let restoreLayout: () => void;
beforeEach(() => {
  restoreLayout = fakeTranscriptLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

function renderView(session: ManifestSession, mediaSrc: string | null) {
  const calls = {
    chooseAudio: [] as Array<string | undefined>,
    save: [] as number[],
    playAnyway: 0,
  };
  const utils = render(
    <ManifestView
      session={session}
      mediaSrc={mediaSrc}
      canUseDialog={false}
      busy={false}
      onChooseAudio={(path) => calls.chooseAudio.push(path)}
      onSaveAttachment={(index) => calls.save.push(index)}
      onPlayAnyway={() => calls.playAnyway++}
    />,
  );
  return { ...utils, calls };
}

const audio = () => screen.getByTestId('manifest-audio') as HTMLAudioElement;

/** What the element reports while playing: a new currentTime, then `timeupdate`. */
function playTo(seconds: number) {
  act(() => {
    audio().currentTime = seconds;
    audio().dispatchEvent(new Event('timeupdate'));
  });
}

const activeCue = () => {
  const cues = within(screen.getByRole('list', { name: 'Cues' })).getAllByRole('listitem');
  return cues.filter((li) => li.getAttribute('aria-current') === 'true');
};

describe('ManifestView with verified audio', () => {
  it('shows the meeting: title, instant and wall-clock label, duration, room, job and attempt, speakers', () => {
    renderView(verifiedSession(), '/media/meeting-audio/token');
    expect(screen.getByRole('heading', { name: 'Weekly planning' })).toBeTruthy();
    const instant = screen.getByTestId('meeting-instant');
    expect(instant.getAttribute('dateTime')).toBe('2026-11-20T10:00:00Z');
    expect(instant.textContent).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' }).format(
        new Date('2026-11-20T10:00:00Z'),
      ),
    );
    expect(screen.getByTestId('meeting-local-label').textContent).toContain('2026-11-20 10:00:00');
    expect(screen.getByText('20.5 s')).toBeTruthy();
    expect(screen.getByText('rm_0123456789abcdef')).toBeTruthy();
    expect(screen.getByText('job-7731').parentElement!.textContent).toBe('job-7731, attempt 1');
    const speakers = within(screen.getByRole('region', { name: 'Speakers' }));
    expect(speakers.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Ana (s1)',
      'Ben (s2)',
    ]);
    expect(screen.getByText('Weekly planning.')).toBeTruthy();
  });

  it('says verified and offers the player, with no refusal', () => {
    renderView(verifiedSession(), '/media/meeting-audio/token');
    const verdict = screen.getByTestId('manifest-verdict');
    expect(verdict.dataset.kind).toBe('verified');
    expect(verdict.className).toContain('manifest-verdict-good');
    expect(verdict.textContent).toContain('Verified recording');
    expect(screen.getByTestId('integrity-summary').textContent).toMatch(/^Verified/);
    expect(audio().getAttribute('src')).toBe('/media/meeting-audio/token');
    expect(screen.queryByTestId('playback-refused')).toBeNull();
  });

  it('highlights the cue and word at the current time, following the audio', () => {
    renderView(verifiedSession(), '/media/meeting-audio/token');
    // The default transcript is the human-corrected one, with speakers and word timings.
    expect(screen.getByTestId('transcript-about').textContent).toContain('Human correction');
    expect(activeCue()).toEqual([]);

    playTo(1.0);
    expect(activeCue()).toHaveLength(1);
    expect(activeCue()[0].textContent).toContain('Ana');
    expect(activeCue()[0].textContent).toContain('Welcome to the weekly planning meeting');
    expect(activeCue()[0].querySelector('.manifest-word-active')?.textContent?.trim()).toBe('to');

    playTo(6.0);
    expect(activeCue()[0].textContent).toContain('Ben');
    expect(activeCue()[0].textContent).toContain('desktop client');

    playTo(15.0);
    expect(activeCue()[0].textContent).toContain('settings screens');

    // Between cues nothing is highlighted.
    playTo(5.5);
    expect(activeCue()).toEqual([]);
  });

  it('seeks when a cue, a word or a chapter is clicked', () => {
    renderView(verifiedSession(), '/media/meeting-audio/token');
    const cues = within(screen.getByRole('list', { name: 'Cues' })).getAllByRole('listitem');
    fireEvent.click(cues[2]);
    expect(audio().currentTime).toBeCloseTo(11.176, 3);
    expect(activeCue()[0]).toBe(cues[2]);

    fireEvent.click(within(cues[1]).getByText('desktop'));
    const desktopWord = (
      JSON.parse(
        JSON.stringify(verifiedSession().report.transcripts.find((t) => t.id === 'fixed-1')),
      ) as { cues: Array<{ words: Array<{ text: string; startMs: number }> }> }
    ).cues[1].words.find((w) => w.text === 'desktop')!;
    expect(audio().currentTime).toBeCloseTo(desktopWord.startMs / 1000, 3);

    const chapters = within(screen.getByRole('navigation', { name: 'Chapters' }));
    fireEvent.click(chapters.getByRole('button', { name: /Open work/ }));
    expect(audio().currentTime).toBeCloseTo(11.176, 3);
    expect(
      chapters
        .getByRole('button', { name: /Open work/ })
        .closest('li')!
        .getAttribute('aria-current'),
    ).toBe('true');
  });

  it('filters cues by the search text, in cue text and speaker names', () => {
    renderView(verifiedSession(), '/media/meeting-audio/token');
    const search = screen.getByRole('searchbox', { name: 'Search in transcript' });
    fireEvent.change(search, { target: { value: 'friday' } });
    let cues = within(screen.getByRole('list', { name: 'Cues' })).getAllByRole('listitem');
    expect(cues).toHaveLength(1);
    expect(cues[0].textContent).toContain('What is still open before Friday?');
    expect(screen.getByTestId('search-count').textContent).toBe('1 of 4 cues match');
    // The matched word is marked, whatever its case in the text.
    expect([...cues[0].querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Friday']);

    fireEvent.change(search, { target: { value: 'BEN' } });
    cues = within(screen.getByRole('list', { name: 'Cues' })).getAllByRole('listitem');
    expect(cues.map((c) => c.textContent)).toEqual([
      expect.stringContaining('desktop client'),
      expect.stringContaining('settings screens'),
    ]);
    expect(cues.map((c) => c.querySelector('.manifest-cue-speaker mark')?.textContent)).toEqual([
      'Ben',
      'Ben',
    ]);
    expect(cues[0].querySelector('.manifest-cue-text mark')).toBeNull();

    // Pattern characters in the query are plain text.
    fireEvent.change(search, { target: { value: 'FRIDAY?' } });
    cues = within(screen.getByRole('list', { name: 'Cues' })).getAllByRole('listitem');
    expect(cues).toHaveLength(1);
    expect([...cues[0].querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Friday?']);
    fireEvent.change(search, { target: { value: '.*' } });
    expect(screen.getByTestId('search-count').textContent).toBe('0 of 4 cues match');

    fireEvent.change(search, { target: { value: 'no such words' } });
    expect(within(screen.getByRole('list', { name: 'Cues' })).queryAllByRole('listitem')).toEqual(
      [],
    );
    fireEvent.change(search, { target: { value: '' } });
    expect(
      within(screen.getByRole('list', { name: 'Cues' })).getAllByRole('listitem'),
    ).toHaveLength(4);
    expect(screen.getByRole('list', { name: 'Cues' }).querySelector('mark')).toBeNull();
  });

  it('switches between transcripts and readable renderings, naming roles and source chains', () => {
    renderView(verifiedSession(), '/media/meeting-audio/token');
    const picker = screen.getByRole('combobox', { name: 'Transcript or rendering' });
    const options = within(picker)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'asr-1 · Raw recogniser output · en',
      'fixed-1 · Human correction · en · default',
      'es-1 · Translation · es · untimed',
      'readable-1 · Readable cleanup · en · default · untimed',
    ]);

    fireEvent.change(picker, { target: { value: 'transcripts/2' } });
    expect(screen.getByTestId('transcript-about').textContent).toContain(
      'from fixed-1 (Human correction) ← asr-1 (Raw recogniser output)',
    );
    expect(screen.getByText(/Untimed text: shown without synchronisation/)).toBeTruthy();
    // Untimed cues neither highlight nor seek.
    playTo(1.0);
    expect(activeCue()).toEqual([]);
    expect(screen.queryByRole('button', { name: /Play from/ })).toBeNull();

    fireEvent.change(picker, { target: { value: 'readableTranscripts/0' } });
    expect(screen.getByText(/Ana: Welcome to the weekly planning meeting/)).toBeTruthy();

    fireEvent.change(picker, { target: { value: 'transcripts/0' } });
    // The WebVTT voices were matched to the speakers' labels.
    playTo(12);
    expect(activeCue()[0].textContent).toContain('Ana');
    expect(activeCue()[0].textContent).toContain('good what is still open before friday');
  });

  it('lists a transcript in an unsupported format as such', () => {
    const session = verifiedSession((doc) => {
      (doc.transcripts as Array<Record<string, unknown>>)[0].format = 'application/x-docx';
    });
    renderView(session, '/media/meeting-audio/token');
    const picker = screen.getByRole('combobox', { name: 'Transcript or rendering' });
    expect(within(picker).getAllByRole('option')[0].textContent).toContain('format not supported');
    fireEvent.change(picker, { target: { value: 'transcripts/0' } });
    expect(screen.getByText(/Format not supported/)).toBeTruthy();
  });

  it('shows attachments with the summary text, and asks to save one', () => {
    const { calls } = renderView(verifiedSession(), '/media/meeting-audio/token');
    const attachments = within(screen.getByRole('region', { name: 'Attachments' }));
    expect(attachments.getByText('notes.md')).toBeTruthy();
    fireEvent.click(attachments.getByRole('button', { name: 'Save…' }));
    expect(calls.save).toEqual([0]);
    const provenance = within(screen.getByRole('region', { name: 'Provenance' }));
    expect(provenance.getByText('Speech to text')).toBeTruthy();
    expect(provenance.getByText('futureKind')).toBeTruthy();
    expect(provenance.getByText('(other kind)')).toBeTruthy();
  });

  it('names provenance kinds and roles called like Object members as they are', () => {
    const session = verifiedSession((doc) => {
      Object.assign(doc.provenance as object, { constructor: { tool: 'x' } });
    });
    renderView(session, '/media/meeting-audio/token');
    const provenance = within(screen.getByRole('region', { name: 'Provenance' }));
    expect(provenance.getByText('constructor').closest('dt')?.textContent).toBe(
      'constructor (other kind)',
    );
    expect(roleName('toString')).toBe('toString');
    expect(roleName('raw-asr')).toBe('Raw recogniser output');
  });
});

describe('ManifestView with a long transcript', () => {
  // Four hours of cues, one every 3 s, each 2 s long.
  const CUES = 4800;
  function longSession() {
    const session = verifiedSession();
    session.report.transcripts = session.report.transcripts.map((view) =>
      view.id === 'fixed-1'
        ? {
            ...view,
            cues: Array.from({ length: CUES }, (_, i) => ({
              startMs: i * 3000,
              endMs: i * 3000 + 2000,
              speakerId: 's1',
              text: `cue number ${i}`,
            })),
          }
        : view,
    );
    return session;
  }

  it('keeps only the rows near the viewport in the DOM and scrolls the spoken cue into view', async () => {
    renderView(longSession(), '/media/meeting-audio/token');
    const list = screen.getByRole('list', { name: 'Cues' });
    const rows = () => within(list).getAllByRole('listitem');
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(60);
    expect(rows()[0].getAttribute('aria-setsize')).toBe(String(CUES));
    expect(within(list).queryByText('cue number 4000')).toBeNull();

    // Far into the meeting: the cue is rendered, highlighted and its row scrolled to.
    playTo(4000 * 3 + 1);
    await act(async () => {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    });
    expect(activeCue()).toHaveLength(1);
    expect(activeCue()[0].textContent).toContain('cue number 4000');
    expect(activeCue()[0].getAttribute('aria-posinset')).toBe('4001');
    expect(screen.getByTestId('cues-scroll').scrollTop).toBeGreaterThan(0);
    expect(rows().length).toBeLessThan(60);

    // Searching narrows the rows to the matches; the spoken cue stays highlighted among them.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search in transcript' }), {
      target: { value: 'number 400' },
    });
    expect(screen.getByTestId('search-count').textContent).toBe(`11 of ${CUES} cues match`);
    expect(activeCue()[0].textContent).toContain('cue number 4000');
  });
});

describe('ManifestView with mismatched audio', () => {
  it('has no player and says why: opusAudioSha256 differs, with both values', () => {
    renderView(mismatchedSession(), null);
    // The finding that matters comes first, and nothing below contradicts it.
    const verdict = screen.getByTestId('manifest-verdict');
    expect(verdict.textContent).toContain('Audio does not belong to this manifest');
    expect(verdict.textContent).toContain('opusAudioSha256 differs');
    expect(document.querySelector('.manifest-view')!.firstElementChild).toBe(verdict);
    expect(screen.queryByText('No errors or warnings.')).toBeNull();
    expect(screen.getByText('The manifest itself has no errors or warnings.')).toBeTruthy();
    expect(screen.queryByTestId('manifest-audio')).toBeNull();
    expect(document.querySelector('audio')).toBeNull();
    const refused = screen.getByTestId('playback-refused');
    expect(refused.textContent).toContain('Playback is available only for verified audio');
    expect(refused.textContent).toContain('opusAudioSha256 differs');
    const table = within(screen.getByRole('region', { name: 'Integrity' })).getByRole('table');
    const row = within(table).getAllByRole('row')[1];
    expect(row.textContent).toContain('opusAudioSha256');
    expect(row.textContent).toContain(
      '944f469c2ff01ffe9b62474b43ed665c048cae998e60f0ec0c3b4d2b4db729a7',
    );
  });

  it('keeps the transcript readable but not synchronised, and chapters are not seek points', () => {
    renderView(mismatchedSession(), null);
    expect(screen.getByText(/follows the audio only once the audio is verified/)).toBeTruthy();
    for (const button of screen.getAllByRole('button', { name: /Play from/ })) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
    }
    const chapters = within(screen.getByRole('navigation', { name: 'Chapters' }));
    for (const button of chapters.getAllByRole('button')) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
    }
  });

  it('lets the user check another audio file by path', () => {
    const { calls } = renderView(mismatchedSession(), null);
    fireEvent.change(screen.getByLabelText(/Audio file path/), {
      target: { value: '/elsewhere/recording.opus' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check this audio' }));
    expect(calls.chooseAudio).toEqual(['/elsewhere/recording.opus']);
  });
});

describe('ManifestView with an invalid manifest', () => {
  it('lists every error with its code and path, and why the audio is missing', () => {
    renderView(invalidSession(), null);
    const findings = within(screen.getByRole('region', { name: 'Findings' }));
    const rows = findings.getAllByRole('row').slice(1);
    expect(
      rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
    ).toEqual([
      ['error', 'pattern-mismatch', '/meeting/createdAtUtc'],
      ['error', 'pattern-mismatch', '/meeting/roomId'],
    ]);
    const verdict = screen.getByTestId('manifest-verdict');
    expect(verdict.textContent).toContain('Manifest has errors');
    const listed = within(screen.getByRole('list', { name: 'Manifest errors' })).getAllByRole(
      'listitem',
    );
    expect(listed.map((li) => li.textContent!.split(' ')[0])).toEqual([
      '/meeting/createdAtUtc',
      '/meeting/roomId',
    ]);
    expect(screen.queryByRole('button', { name: 'Play anyway' })).toBeNull();
    expect(screen.getByTestId('playback-refused').textContent).toContain(
      'No audio file: no audio file found beside the manifest; pick one.',
    );
  });

  it('with matching audio: nothing green, no player until "Play anyway"', () => {
    const { calls } = renderView(invalidMatchedSession(null), null);
    const verdict = screen.getByTestId('manifest-verdict');
    expect(verdict.dataset.kind).toBe('invalid');
    expect(verdict.className).toContain('manifest-verdict-bad');
    expect(document.querySelector('[class*="good"], [class*="verified"], .manifest-ok')).toBeNull();
    expect(screen.getByTestId('integrity-summary').textContent).not.toMatch(/^Verified/);
    expect(document.querySelector('audio')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Play anyway' }));
    expect(calls.playAnyway).toBe(1);
    cleanup();

    // Main answered with the token: the player appears, and the choice is stated.
    renderView(invalidMatchedSession('token-anyway-0123456789'), '/media/meeting-audio/anyway');
    expect(audio().getAttribute('src')).toBe('/media/meeting-audio/anyway');
    expect(screen.getByTestId('playing-anyway').textContent).toContain('this file only');
    expect(screen.queryByRole('button', { name: 'Play anyway' })).toBeNull();
  });
});
