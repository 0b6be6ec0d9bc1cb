// Settings > Organization > Custom emoji: every active custom emoji with its author; those the
// realm's can_add_custom_emoji_group allows upload one (name, image, preview before sending);
// administrators delete any, others only their own, as on the public server.
import { useState } from 'react';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import { mediaUrl } from '../../../bridge/media';
import { emojiNameProblem, normalizeEmojiName } from '../../../../shared/emoji/custom-emoji-name';
import {
  DeleteButton,
  ImageFileInput,
  ListTable,
  ReadOnlyNote,
  Refusal,
  matchesFilter,
  standing,
  useChange,
  useLocalPreview,
} from './extras-kit';

interface RealmEmojiEntry {
  id: string;
  name: string;
  source_url: string;
  deactivated?: boolean;
  author_id?: number | null;
}

/** The server's MAX_EMOJI_FILE_SIZE_MIB. */
const MAX_EMOJI_BYTES = 5 * 1024 * 1024;

function EmojiUpload({ accountId, taken }: { accountId: string; taken: ReadonlySet<string> }) {
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const { error, setError, busy, run } = useChange();
  const preview = useLocalPreview(file);

  const normalized = normalizeEmojiName(name);
  const nameProblem =
    name === ''
      ? null
      : (emojiNameProblem(normalized) ??
        (taken.has(normalized) ? 'A custom emoji with this name already exists.' : null));
  const fileProblem =
    file && file.size > MAX_EMOJI_BYTES
      ? 'Uploaded file is larger than the allowed limit of 5 MiB'
      : null;
  const ready = name !== '' && file !== null && !nameProblem && !fileProblem;

  const submit = async () => {
    if (!ready || !file) return;
    const accepted = await run(async () => {
      const { token } = await api().intakeFile(file);
      await api().addCustomEmoji({ accountId, name: normalized, token });
    });
    if (accepted) {
      setName('');
      setFile(null);
      setInputKey((k) => k + 1);
    }
  };

  return (
    <form
      className="admin-form"
      aria-label="Add a new emoji"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Add a new emoji</h3>
      <div className="admin-form-row">
        <label>
          Emoji name
          <input
            value={name}
            placeholder="leafy_green_vegetable"
            maxLength={60}
            aria-invalid={nameProblem ? true : undefined}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
          />
        </label>
        <label className="admin-file">
          Image
          <ImageFileInput
            resetKey={inputKey}
            onPick={(picked) => {
              setFile(picked);
              setError(null);
            }}
          />
        </label>
        <span className="admin-emoji-preview" aria-live="polite">
          {preview ? (
            <img src={preview} alt={`Preview of :${normalized || 'emoji'}:`} />
          ) : (
            <span className="admin-muted">No image chosen</span>
          )}
        </span>
        <button type="submit" className="admin-primary" disabled={!ready || busy}>
          Add emoji
        </button>
      </div>
      {nameProblem || fileProblem ? (
        <p className="admin-invalid">{nameProblem ?? fileProblem}</p>
      ) : null}
      <Refusal error={error} />
    </form>
  );
}

export function CustomEmoji({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [filter, setFilter] = useState('');
  const { error, run } = useChange();
  if (!account) return null;
  const me = standing(account);
  const dict = (account.settings.realm.realm_emoji ?? {}) as Record<string, RealmEmojiEntry>;
  const active = Object.values(dict)
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));
  const taken = new Set(active.map((e) => e.name));
  const authorName = (id: number | null | undefined) =>
    id == null ? '' : (account.users.users.get(id)?.full_name ?? 'Unknown user');
  const shown = active.filter((e) => matchesFilter(filter, e.name, authorName(e.author_id)));

  return (
    <section className="settings-section admin-section" aria-label="Custom emoji">
      <h2>Custom emoji</h2>
      <p className="admin-lead">
        Add extra emoji for members of the {String(account.settings.realm.realm_name ?? '')}{' '}
        organization.
      </p>
      {me.canAddEmoji ? (
        <EmojiUpload accountId={accountId} taken={taken} />
      ) : (
        <ReadOnlyNote>You do not have permission to add custom emoji.</ReadOnlyNote>
      )}
      <Refusal error={error} />
      <ListTable
        label="Custom emoji list"
        heading="Emoji"
        filter={{ label: 'Filter emoji', value: filter, onChange: setFilter }}
        columns={['Name', ['Image', 'narrow'], 'Author']}
        actions="delete"
        emptyText={
          shown.length > 0
            ? null
            : active.length === 0
              ? 'No custom emoji.'
              : 'No custom emoji match your filter.'
        }
      >
        {shown.map((emoji) => {
          const src = mediaUrl(accountId, emoji.source_url);
          const mayDelete = me.isAdmin || emoji.author_id === me.selfUserId;
          return (
            <tr key={emoji.id} aria-label={`:${emoji.name}:`}>
              <td>{emoji.name}</td>
              <td>
                {src ? <img className="admin-emoji" src={src} alt={`:${emoji.name}:`} /> : null}
              </td>
              <td>{authorName(emoji.author_id)}</td>
              <td className="admin-actions">
                {mayDelete ? (
                  <DeleteButton
                    what={`:${emoji.name}:`}
                    onDelete={() =>
                      void run(() => api().deleteCustomEmoji({ accountId, name: emoji.name }))
                    }
                  />
                ) : null}
              </td>
            </tr>
          );
        })}
      </ListTable>
    </section>
  );
}
