// Every error and warning the check produced, each with its code and JSON Pointer.
import type { Finding } from '../../../shared/manifest';

export function FindingsPanel({ errors, warnings }: { errors: Finding[]; warnings: Finding[] }) {
  if (errors.length === 0 && warnings.length === 0) {
    return (
      <section aria-label="Findings" className="manifest-findings">
        <p className="manifest-muted">The manifest itself has no errors or warnings.</p>
      </section>
    );
  }
  const rows = (kind: 'error' | 'warning', list: Finding[]) =>
    list.map((f, i) => (
      <tr key={`${kind}-${i}`} className={`manifest-finding-${kind}`}>
        <td>{kind}</td>
        <td>
          <code>{f.code}</code>
        </td>
        <td>
          <code>{f.path === '' ? '(document)' : f.path}</code>
        </td>
        <td>{f.message}</td>
      </tr>
    ));
  return (
    <section aria-label="Findings" className="manifest-findings">
      <h3>
        {errors.length} error{errors.length === 1 ? '' : 's'}, {warnings.length} warning
        {warnings.length === 1 ? '' : 's'}
      </h3>
      <table>
        <thead>
          <tr>
            <th>Kind</th>
            <th>Code</th>
            <th>Path</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {rows('error', errors)}
          {rows('warning', warnings)}
        </tbody>
      </table>
    </section>
  );
}
