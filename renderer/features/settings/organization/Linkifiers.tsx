// Settings > Organization > Linkifiers: the realm's patterns in the order messages try them.
// Administrators add, edit, delete and reorder them; the form checks a draft with the server's own
// rules (shared/linkifier-rules.ts) as it is typed and shows the link the example would become,
// including the reverse template check. Everyone else sees the list.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import type { RealmLinkifier } from '../../../../shared/api/realm-config';
import type { LinkifierInput } from '../../../../shared/ipc/admin-extras';
import { checkLinkifier } from '../../../../shared/linkifier-rules';
import {
  ListTable,
  ReadOnlyNote,
  Refusal,
  RowActions,
  matchesFilter,
  standing,
  useChange,
} from './extras-kit';

const EMPTY: LinkifierInput = {
  pattern: '',
  urlTemplate: '',
  reverseTemplate: '',
  exampleInput: '',
};

function fromLinkifier(l: RealmLinkifier): LinkifierInput {
  return {
    pattern: l.pattern,
    urlTemplate: l.url_template,
    reverseTemplate: l.reverse_template ?? '',
    exampleInput: l.example_input ?? '',
  };
}

/** What the live test says about a draft: the server's refusal, or the example's link. */
function LiveTest({ draft }: { draft: LinkifierInput }) {
  if (draft.pattern === '' || draft.urlTemplate === '') return null;
  const check = checkLinkifier({
    pattern: draft.pattern,
    url_template: draft.urlTemplate,
    reverse_template: draft.reverseTemplate,
    example_input: draft.exampleInput,
  });
  if (!check.ok) {
    return (
      <p className="admin-invalid" data-testid="linkifier-test">
        {check.error}
      </p>
    );
  }
  return (
    <p className="admin-test" data-testid="linkifier-test">
      {check.exampleUrl ? (
        <>
          <code>{draft.exampleInput}</code> links to <code>{check.exampleUrl}</code>
          {check.reverseTemplate ? ' — the reverse template gives the example back.' : null}
        </>
      ) : (
        'Give an example input to see the link it makes.'
      )}
    </p>
  );
}

function LinkifierForm({
  initial,
  title,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: LinkifierInput;
  title: string;
  submitLabel: string;
  onSubmit: (draft: LinkifierInput) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof LinkifierInput) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const valid = checkLinkifier({
    pattern: draft.pattern,
    url_template: draft.urlTemplate,
    reverse_template: draft.reverseTemplate,
    example_input: draft.exampleInput,
  }).ok;
  return (
    <form
      className="admin-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        setBusy(true);
        void onSubmit(draft).then((accepted) => {
          setBusy(false);
          if (accepted && !onCancel) setDraft(EMPTY);
        });
      }}
    >
      <h3>{title}</h3>
      <div className="admin-grid">
        <label>
          Pattern
          <input value={draft.pattern} onChange={set('pattern')} placeholder="#(?P<id>[0-9]+)" />
        </label>
        <label>
          URL template
          <input
            value={draft.urlTemplate}
            onChange={set('urlTemplate')}
            placeholder="https://github.com/zulip/zulip/issues/{id}"
          />
        </label>
        <label>
          <span className="admin-label-text">
            Reverse template <span className="admin-muted">(optional)</span>
          </span>
          <input
            value={draft.reverseTemplate}
            onChange={set('reverseTemplate')}
            placeholder="#{id}"
          />
        </label>
        <label>
          <span className="admin-label-text">
            Example input <span className="admin-muted">(optional)</span>
          </span>
          <input value={draft.exampleInput} onChange={set('exampleInput')} placeholder="#1234" />
        </label>
      </div>
      <LiveTest draft={draft} />
      <div className="admin-buttons">
        <button type="submit" className="admin-primary" disabled={!valid || busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

export function Linkifiers({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const { error, run } = useChange();
  if (!account) return null;
  const me = standing(account);
  const linkifiers = (account.settings.realm.realm_linkifiers ?? []) as RealmLinkifier[];
  const ids = linkifiers.map((l) => l.id);
  const reorder = (orderedIds: number[]) =>
    void run(() => api().reorderLinkifiers({ accountId, orderedIds }));

  return (
    <section className="settings-section admin-section" aria-label="Linkifiers">
      <h2>Linkifiers</h2>
      <p className="admin-lead">
        Configure regular expression patterns that turn matching text in messages and topics into
        links. For example, the pattern <code>#(?P&lt;id&gt;[0-9]+)</code> with the URL template{' '}
        <code>https://github.com/zulip/zulip/issues/{'{id}'}</code> links <code>#1234</code> to
        issue 1234. Patterns are tried in the order listed.
      </p>
      {me.isAdmin ? (
        <LinkifierForm
          initial={EMPTY}
          title="Add a new linkifier"
          submitLabel="Add linkifier"
          onSubmit={(linkifier) => run(() => api().addLinkifier({ accountId, linkifier }))}
        />
      ) : (
        <ReadOnlyNote>Only organization administrators can change linkifiers.</ReadOnlyNote>
      )}
      <Refusal error={error} />
      <ListTable
        label="Linkifier list"
        heading="Linkifiers"
        filter={{ label: 'Filter linkifiers', value: filter, onChange: setFilter }}
        columns={['Pattern', 'URL template', ['Example', 'narrow']]}
        actions={me.isAdmin}
        emptyText={linkifiers.length === 0 ? 'No linkifiers configured.' : null}
      >
        {linkifiers.map((l, index) =>
          !matchesFilter(filter, l.pattern, l.url_template) ? null : editing === l.id ? (
            <tr key={l.id}>
              <td colSpan={4}>
                <LinkifierForm
                  initial={fromLinkifier(l)}
                  title={`Edit linkifier ${l.pattern}`}
                  submitLabel="Save changes"
                  onCancel={() => setEditing(null)}
                  onSubmit={async (linkifier) => {
                    const accepted = await run(() =>
                      api().updateLinkifier({ accountId, linkifierId: l.id, linkifier }),
                    );
                    if (accepted) setEditing(null);
                    return accepted;
                  }}
                />
              </td>
            </tr>
          ) : (
            <tr key={l.id} aria-label={l.pattern}>
              <td>
                <code>{l.pattern}</code>
              </td>
              <td>{l.url_template}</td>
              <td>{l.example_input ?? ''}</td>
              {me.isAdmin ? (
                <RowActions
                  what={l.pattern}
                  order={{ ids, index, onMove: reorder }}
                  onEdit={() => setEditing(l.id)}
                  onDelete={() =>
                    void run(() => api().deleteLinkifier({ accountId, linkifierId: l.id }))
                  }
                />
              ) : null}
            </tr>
          ),
        )}
      </ListTable>
    </section>
  );
}
