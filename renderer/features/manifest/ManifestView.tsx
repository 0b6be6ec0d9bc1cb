// One opened manifest: the one verdict first, then the meeting, the integrity details and the player
// (present only when the audio is verified and the manifest valid, or after "Play anyway"), findings,
// chapters, the transcript that follows the audio, attachments, provenance.
import { memo, useMemo, type ReactNode } from 'react';
import type { ManifestSession } from '../../../shared/ipc/manifest';
import { manifestVerdict } from '../../../shared/manifest';
import { FindingsPanel } from './FindingsPanel';
import { IntegrityPanel, integritySummary } from './IntegrityPanel';
import { MeetingHeader } from './MeetingHeader';
import { AttachmentsPanel, ChaptersPanel, ProvenancePanel, chaptersOf } from './SidePanels';
import { TranscriptPanel } from './TranscriptPanel';
import { usePlayback } from './usePlayback';
import { VerdictBanner } from './VerdictBanner';

export interface ManifestViewProps {
  session: ManifestSession;
  /** Where the verified audio streams from (null when not verified). */
  mediaSrc: string | null;
  canUseDialog: boolean;
  busy: boolean;
  onChooseAudio(path?: string): void;
  onSaveAttachment(index: number): void;
  /** "Play anyway" for an invalid manifest whose audio matched (main then serves the audio). */
  onPlayAnyway(): void;
  /** Opens "Share to a conversation…"; absent when there is no signed-in account to share with. */
  onShare?: () => void;
  /** The open "Share to a conversation…" panel, shown under the verdict. */
  sharePanel?: ReactNode;
}

const Header = memo(MeetingHeader);
const Integrity = memo(IntegrityPanel);
const Findings = memo(FindingsPanel);
const Attachments = memo(AttachmentsPanel);
const Provenance = memo(ProvenancePanel);

export function ManifestView({
  session,
  mediaSrc,
  canUseDialog,
  busy,
  onChooseAudio,
  onSaveAttachment,
  onPlayAnyway,
  onShare,
  sharePanel,
}: ManifestViewProps) {
  const { report, attachments } = session;
  const verdict = useMemo(() => manifestVerdict(report), [report]);
  // Main hands out the media token only for a playable recording; the verdict is checked as well so
  // that the page never offers audio the verdict refuses.
  const verified = verdict.playback !== 'refused' && mediaSrc !== null;
  const { audioRef, currentMs, seek } = usePlayback(verified ? mediaSrc : null);
  const manifest = report.manifest;
  const summaryName = (manifest?.summary as { attachment?: unknown } | undefined)?.attachment;
  const summaryText =
    typeof summaryName === 'string'
      ? (attachments.find((a) => a.name === summaryName)?.textPreview ?? null)
      : null;

  return (
    <article className="manifest-view" aria-label="Meeting manifest">
      <VerdictBanner
        verdict={verdict}
        playingAnyway={verdict.playback === 'play-anyway' && mediaSrc !== null}
        busy={busy}
        onPlayAnyway={onPlayAnyway}
      />
      <p className="manifest-path manifest-muted">
        <code>{report.manifestPath}</code>
        {onShare && (
          <>
            {' '}
            <button type="button" disabled={busy} onClick={onShare}>
              Share to a conversation…
            </button>
          </>
        )}
      </p>
      {sharePanel}
      {manifest && <Header manifest={manifest} summaryText={summaryText} />}
      <Integrity
        integrity={report.integrity}
        manifestValid={report.valid}
        manifest={manifest}
        canUseDialog={canUseDialog}
        busy={busy}
        onChooseAudio={onChooseAudio}
      />
      <section aria-label="Playback" className="manifest-player">
        {verified ? (
          <audio
            ref={audioRef}
            src={mediaSrc}
            controls
            preload="metadata"
            data-testid="manifest-audio"
          />
        ) : (
          <p role="note" className="manifest-playback-refused" data-testid="playback-refused">
            {verdict.playback === 'play-anyway'
              ? 'The manifest has errors: the recording plays only after you choose "Play anyway" above.'
              : `Playback is available only for verified audio. ${integritySummary(report.integrity, report.valid)}`}
          </p>
        )}
      </section>
      <Findings errors={report.errors} warnings={report.warnings} />
      <div className="manifest-body">
        <ChaptersPanel
          chapters={chaptersOf(manifest)}
          synced={verified}
          currentMs={currentMs}
          onSeek={seek}
        />
        <TranscriptPanel
          views={report.transcripts}
          manifest={manifest}
          synced={verified}
          currentMs={currentMs}
          onSeek={seek}
        />
      </div>
      <Attachments attachments={attachments} onSave={onSaveAttachment} />
      <Provenance provenance={manifest?.provenance} />
    </article>
  );
}
