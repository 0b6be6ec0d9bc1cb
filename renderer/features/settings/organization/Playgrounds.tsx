// Settings > Organization > Code playgrounds: where a code block of a language can be opened
// ("View in Rust playground"). Administrators add and delete them; everyone sees the list.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import type { RealmPlayground } from '../../../../shared/api/realm-config';
import { templateVariables } from '../../../../shared/linkifier-rules';
import {
  ListTable,
  ReadOnlyNote,
  Refusal,
  RowActions,
  matchesFilter,
  standing,
  useChange,
} from './extras-kit';

/** The server's checks, with its messages, so the form says why before sending. */
function playgroundProblem(name: string, language: string, urlTemplate: string): string | null {
  if (language.trim() === '') return 'Language cannot be blank';
  if (name.trim() === '') return 'Name cannot be blank';
  const variables = templateVariables(urlTemplate);
  if (variables === null) return 'Invalid URL template.';
  if (variables.length !== 1 || variables[0] !== 'code') {
    return 'Code playground URL template must contain exactly one variable named "code".';
  }
  return null;
}

function PlaygroundForm({ accountId }: { accountId: string }) {
  const [language, setLanguage] = useState('');
  const [name, setName] = useState('');
  const [urlTemplate, setUrlTemplate] = useState('');
  const { error, busy, run } = useChange();
  const touched = language !== '' || name !== '' || urlTemplate !== '';
  const problem = playgroundProblem(name, language, urlTemplate);
  return (
    <form
      className="admin-form"
      aria-label="Add a new code playground"
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        void run(() => api().addPlayground({ accountId, name, language, urlTemplate })).then(
          (accepted) => {
            if (!accepted) return;
            setLanguage('');
            setName('');
            setUrlTemplate('');
          },
        );
      }}
    >
      <h3>Add a new code playground</h3>
      <div className="admin-grid">
        <label>
          Language
          <input
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            placeholder="Rust"
          />
        </label>
        <label>
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Rust playground"
          />
        </label>
        <label className="admin-grid-wide">
          URL template
          <input
            value={urlTemplate}
            onChange={(e) => setUrlTemplate(e.target.value)}
            placeholder="https://play.rust-lang.org/?code={code}"
          />
        </label>
      </div>
      {touched && problem ? <p className="admin-invalid">{problem}</p> : null}
      <div className="admin-buttons">
        <button type="submit" className="admin-primary" disabled={problem !== null || busy}>
          Add code playground
        </button>
      </div>
      <Refusal error={error} />
    </form>
  );
}

export function Playgrounds({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [filter, setFilter] = useState('');
  const { error, run } = useChange();
  if (!account) return null;
  const me = standing(account);
  const playgrounds = ((account.settings.realm.realm_playgrounds ?? []) as RealmPlayground[])
    .filter((p) => matchesFilter(filter, p.name, p.pygments_language))
    .sort(
      (a, b) =>
        a.pygments_language.localeCompare(b.pygments_language) || a.name.localeCompare(b.name),
    );
  return (
    <section className="settings-section admin-section" aria-label="Code playgrounds">
      <h2>Code playgrounds</h2>
      <p className="admin-lead">
        Code playgrounds open the code of a code block in an external tool, such as an online
        compiler. The URL template gets the code as its <code>{'{code}'}</code> variable.
      </p>
      {me.isAdmin ? (
        <PlaygroundForm accountId={accountId} />
      ) : (
        <ReadOnlyNote>Only organization administrators can change code playgrounds.</ReadOnlyNote>
      )}
      <Refusal error={error} />
      <ListTable
        label="Code playground list"
        heading="Code playgrounds"
        filter={{ label: 'Filter code playgrounds', value: filter, onChange: setFilter }}
        columns={[['Language', 'narrow'], 'Name', 'URL template']}
        actions={me.isAdmin && 'delete'}
        emptyText={playgrounds.length === 0 ? 'No code playgrounds configured.' : null}
      >
        {playgrounds.map((p) => (
          <tr key={p.id} aria-label={p.name}>
            <td>{p.pygments_language}</td>
            <td>{p.name}</td>
            <td>{p.url_template}</td>
            {me.isAdmin ? (
              <RowActions
                what={p.name}
                onDelete={() =>
                  void run(() => api().deletePlayground({ accountId, playgroundId: p.id }))
                }
              />
            ) : null}
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
