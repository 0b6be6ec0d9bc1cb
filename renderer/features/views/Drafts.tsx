// Drafts: every saved draft of the account, to reopen or delete.
import { useAccountNames } from '../../store/hooks';
import { dmNarrow, topicNarrow } from '../../../shared/narrow';
import { api } from '../../bridge/api';
import { navigate, useUi } from '../../store/ui-store';
import { userName } from '../messages/narrow-info';
import type { LocalDraft } from '../../../shared/ipc/drafts';

/** Shared empty list: a selector must return the same value while nothing changed. */
const NO_DRAFTS: readonly LocalDraft[] = [];

export function Drafts({ accountId }: { accountId: string }) {
  const drafts = useUi((s) => s.drafts[accountId]) ?? NO_DRAFTS;
  const account = useAccountNames();
  return (
    <section className="view drafts" aria-label="Drafts">
      <h1>Drafts</h1>
      {drafts.length === 0 ? <p>No drafts.</p> : null}
      <ul>
        {[...drafts]
          .sort((a, b) => b.timestamp - a.timestamp)
          .map((d) => {
            const body = d.draft;
            const title =
              body.type === 'stream'
                ? `#${account?.channels.channels.get(body.to[0])?.name ?? body.to[0]} > ${body.topic}`
                : body.type === 'private'
                  ? body.to.map((id) => userName(account, id)).join(', ')
                  : 'Not addressed';
            return (
              <li key={d.key} data-testid="draft">
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    if (body.type === 'stream')
                      navigate({ kind: 'narrow', narrow: topicNarrow(body.to[0], body.topic) });
                    else if (body.type === 'private')
                      navigate({ kind: 'narrow', narrow: dmNarrow(body.to) });
                  }}
                >
                  {title}
                </button>
                <p className="draft-content">{body.content}</p>
                <button
                  type="button"
                  aria-label={`Delete draft to ${title}`}
                  onClick={() => void api().deleteDraft({ accountId, key: d.key })}
                >
                  Delete
                </button>
              </li>
            );
          })}
      </ul>
    </section>
  );
}
