// One opened manifest: the meeting, the integrity verdict and the player (present only when the audio
// is verified), findings, chapters, the transcript that follows the audio, attachments, provenance.
import { memo } from 'react';
import type { ManifestSession } from '../../../shared/ipc/manifest';
import { FindingsPanel } from './FindingsPanel';
import { IntegrityPanel, integritySummary } from './IntegrityPanel';
import { MeetingHeader } from './MeetingHeader';
import { AttachmentsPanel, ChaptersPanel, ProvenancePanel, chaptersOf } from './SidePanels';
import { TranscriptPanel } from './TranscriptPanel';
import { usePlayback } from './usePlayback';

export interface ManifestViewProps {
  session: ManifestSession;
  /** Where the verified audio streams from (null when not verified). */
  mediaSrc: string | null;
  canUseDialog: boolean;
  busy: boolean;
  onChooseAudio(path?: string): void;
  onSaveAttachment(index: number): void;
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
}: ManifestViewProps) {
  const { report, attachments } = session;
  const verified = report.integrity.status === 'verified' && mediaSrc !== null;
  const { audioRef, currentMs, seek } = usePlayback(verified ? mediaSrc : null);
  const manifest = report.manifest;
  const summaryName = (manifest?.summary as { attachment?: unknown } | undefined)?.attachment;
  const summaryText =
    typeof summaryName === 'string'
      ? (attachments.find((a) => a.name === summaryName)?.textPreview ?? null)
      : null;

  return (
    <article className="manifest-view" aria-label="Meeting manifest">
      <p className="manifest-path manifest-muted">
        <code>{report.manifestPath}</code> ·{' '}
        {report.valid ? 'valid manifest' : <strong className="manifest-error">invalid</strong>}
      </p>
      {manifest && <Header manifest={manifest} summaryText={summaryText} />}
      <Integrity
        integrity={report.integrity}
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
            Playback is available only for verified audio. {integritySummary(report.integrity)}
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
