// Whether the audio belongs to this manifest: verified, exactly which members differ, or why the
// audio is unreadable or missing; and a way to check another audio file.
import { useState } from 'react';
import type { IntegrityOutcome, TypedManifest } from '../../../shared/manifest';

/** `manifestValid` false: matching audio is not called verified (an invalid manifest vouches for nothing). */
export function integritySummary(integrity: IntegrityOutcome, manifestValid = true): string {
  switch (integrity.status) {
    case 'verified':
      return manifestValid
        ? 'Verified: this audio belongs to this manifest.'
        : "The audio matches the manifest's integrity values, but the manifest has errors.";
    case 'mismatch':
      return `The audio does not match this manifest: ${integrity.mismatches
        .map((m) => `${m} differs`)
        .join(', ')}.`;
    case 'unreadable':
      return `The audio is unreadable: ${integrity.reason ?? 'not a single-stream Ogg Opus file'}.`;
    case 'missing':
      return `No audio file: ${integrity.reason ?? 'none was found'}.`;
    case 'not-checked':
      return `The audio was not checked: ${integrity.reason ?? 'the manifest could not be decoded'}.`;
  }
}

export function IntegrityPanel({
  integrity,
  manifestValid,
  manifest,
  canUseDialog,
  busy,
  onChooseAudio,
}: {
  integrity: IntegrityOutcome;
  manifestValid: boolean;
  manifest?: TypedManifest;
  canUseDialog: boolean;
  busy: boolean;
  onChooseAudio(path?: string): void;
}) {
  const [path, setPath] = useState('');
  const declared = manifest?.integrity as Record<string, unknown> | undefined;
  // No green for an invalid manifest, even when its audio matched (the verdict says why).
  const look =
    integrity.status === 'verified' && !manifestValid ? 'matched-invalid' : integrity.status;
  return (
    <section
      aria-label="Integrity"
      className={`manifest-integrity manifest-integrity-${look}`}
      data-status={integrity.status}
    >
      <h3>Audio integrity</h3>
      <p data-testid="integrity-summary">{integritySummary(integrity, manifestValid)}</p>
      {integrity.audioSource && (
        <p className="manifest-muted">
          Audio: <code>{integrity.audioSource.location}</code> (found by {integrity.audioSource.via}
          )
        </p>
      )}
      {integrity.status === 'mismatch' && (
        <table className="manifest-mismatches">
          <thead>
            <tr>
              <th>Member</th>
              <th>Manifest says</th>
              <th>Audio has</th>
            </tr>
          </thead>
          <tbody>
            {integrity.mismatches.map((member) => (
              <tr key={member}>
                <td>
                  <code>{member}</code>
                </td>
                <td>
                  <code>{String(declared?.[member] ?? '—')}</code>
                </td>
                <td>
                  <code>
                    {String(
                      (integrity.actual as Record<string, unknown> | undefined)?.[member] ??
                        'not an integrity member',
                    )}
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {integrity.status !== 'not-checked' && (
        <div className="manifest-pick-audio">
          {canUseDialog ? (
            <button type="button" disabled={busy} onClick={() => onChooseAudio()}>
              {integrity.status === 'verified' ? 'Check another audio file…' : 'Choose audio file…'}
            </button>
          ) : (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (path.trim()) onChooseAudio(path.trim());
              }}
            >
              <label>
                {integrity.status === 'verified' ? 'Check another audio file' : 'Audio file path'}{' '}
                <input
                  value={path}
                  onChange={(e) => setPath(e.target.value)}
                  placeholder="/path/to/recording.opus"
                />
              </label>{' '}
              <button type="submit" disabled={busy || !path.trim()}>
                Check this audio
              </button>
            </form>
          )}
        </div>
      )}
    </section>
  );
}
