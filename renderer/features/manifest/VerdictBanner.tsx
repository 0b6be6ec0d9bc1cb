// The one verdict at the top of the viewer (shared/manifest/verdict.ts): what a person needs to know
// before anything else, with the manifest's errors listed right there and, for an invalid manifest
// whose audio matched, the explicit "Play anyway".
import type { ManifestVerdict } from '../../../shared/manifest';

export function VerdictBanner({
  verdict,
  playingAnyway,
  busy,
  onPlayAnyway,
}: {
  verdict: ManifestVerdict;
  /** The person already chose "Play anyway" for this file. */
  playingAnyway: boolean;
  busy: boolean;
  onPlayAnyway(): void;
}) {
  return (
    <section
      aria-label="Verdict"
      className={`manifest-verdict manifest-verdict-${verdict.tone}`}
      data-testid="manifest-verdict"
      data-kind={verdict.kind}
    >
      <p className="manifest-verdict-title" role="status">
        <span aria-hidden="true" className="manifest-verdict-icon">
          {ICONS[verdict.tone]}
        </span>{' '}
        <strong>{verdict.title}</strong>
      </p>
      <p className="manifest-verdict-detail">{verdict.detail}</p>
      {verdict.errors.length > 0 && (
        <ul className="manifest-verdict-errors" aria-label="Manifest errors">
          {verdict.errors.map((f, i) => (
            <li key={i}>
              {f.message}
              {/* Most messages name their place already; the pointer is added when not. */}
              {!f.message.includes(f.path || '\0') && (
                <>
                  {' '}
                  <code className="manifest-muted">{f.path || '(document)'}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {verdict.playback === 'play-anyway' &&
        (playingAnyway ? (
          <p className="manifest-muted" data-testid="playing-anyway">
            You chose to play this recording anyway (remembered for this file only).
          </p>
        ) : (
          <button type="button" disabled={busy} onClick={onPlayAnyway}>
            Play anyway
          </button>
        ))}
    </section>
  );
}

const ICONS: Record<ManifestVerdict['tone'], string> = {
  good: '✓',
  bad: '✕',
  caution: '!',
  neutral: '…',
};
