// Bots, as the public web app splits them: "Your bots" (personal settings: create generic,
// incoming-webhook and outgoing-webhook bots with an avatar, show or regenerate a key, download a
// zuliprc, see and change an outgoing webhook's endpoint, format and token, rename, deactivate)
// and "Bots" (organization settings: every bot of the realm with its owner; administrators may
// deactivate and reactivate any of them, others only read the list).
// A key reaches this page only as the answer to "Show API key" or "Regenerate" for a bot the user
// owns; it lives in this component's state until the panel is closed, never in the store.
import { useState } from 'react';
import type { RealmBot, User } from '../../../../shared/api/types';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api } from '../../../bridge/api';
import { avatar } from '../../messages/MessageRow';
import { isRealmAdmin, realmAllows } from '../../channels/channel-permissions';
import { useAdminAction, StatusLine, type AdminAction } from './admin-action';
import {
  OUTGOING_WEBHOOK_INTERFACES,
  interfaceName,
  normalizePayloadUrl,
  notAUrl,
} from '../../../../shared/admin/bot-rules';
import './admin-people.css';

const BOT_TYPES = [
  [1, 'Generic', 'Sends and receives messages through the API.'],
  [2, 'Incoming webhook', 'Can only send messages (for integrations).'],
  [3, 'Outgoing webhook', 'Messages that mention it are posted to your URL.'],
] as const;
const typeName = (type: number | null | undefined) =>
  BOT_TYPES.find(([id]) => id === type)?.[1] ?? 'Embedded';
const SHORT_NAME = /^[a-zA-Z0-9_.+-]+$/;
const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
const NO_BOTS: readonly RealmBot[] = [];

/** The picture's problem before anything is sent, or null. */
function avatarProblem(file: File | null): string | null {
  if (!file) return null;
  if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type))
    return 'Choose a PNG, JPEG, GIF or WebP picture.';
  if (file.size > MAX_AVATAR_BYTES) return 'The picture may be at most 5 MiB.';
  return null;
}

export function YourBots({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const bots = (account?.settings.realm.realm_bots as RealmBot[] | undefined) ?? NO_BOTS;
  if (!account) return null;
  const mine = bots
    .filter((b) => b.owner_id === account.selfUserId)
    .sort(
      (a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name),
    );
  const mayCreate =
    realmAllows(account, 'can_create_bots_group') ||
    realmAllows(account, 'can_create_write_only_bots_group');
  return (
    <section className="admin-screen" aria-label="Your bots">
      <header className="admin-header">
        <h2>Your bots</h2>
      </header>
      {mayCreate ? (
        <CreateBot accountId={accountId} />
      ) : (
        <p className="muted">This organization does not let you create bots.</p>
      )}
      <h3>Active and deactivated bots</h3>
      {mine.length === 0 ? <p className="muted">You have no bots yet.</p> : null}
      <ul className="bot-cards" aria-label="Your bots list">
        {mine.map((bot) => (
          <BotCard
            key={bot.user_id}
            accountId={accountId}
            bot={bot}
            admin={isRealmAdmin(account)}
          />
        ))}
      </ul>
    </section>
  );
}

function CreateBot({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [botType, setBotType] = useState<1 | 2 | 3>(1);
  const [fullName, setFullName] = useState('');
  const [shortName, setShortName] = useState('');
  const [payloadUrl, setPayloadUrl] = useState('');
  const [interfaceType, setInterfaceType] = useState<1 | 2>(1);
  const [file, setFile] = useState<File | null>(null);
  const [formKey, setFormKey] = useState(0);
  const action = useAdminAction();
  if (!account) return null;
  const onlyWebhooks =
    !realmAllows(account, 'can_create_bots_group') &&
    realmAllows(account, 'can_create_write_only_bots_group');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (fullName.trim() === '') return action.fail('Give the bot a name.');
    if (!SHORT_NAME.test(shortName.trim()))
      return action.fail('The bot email may use letters, digits and . _ + - only.');
    // The server's own words: http or https, no credentials in it.
    if (botType === 3 && normalizePayloadUrl(payloadUrl) === null)
      return action.fail(notAUrl('payload_url'));
    const problem = avatarProblem(file);
    if (problem) return action.fail(problem);
    const request = (async () => {
      const avatarToken = file ? (await window.tributary.intakeFile(file)).token : undefined;
      await api().createBot({
        accountId,
        fullName: fullName.trim(),
        shortName: shortName.trim(),
        botType,
        ...(botType === 3 ? { payloadUrl: payloadUrl.trim(), interfaceType } : {}),
        ...(avatarToken ? { avatarToken } : {}),
      });
      setFullName('');
      setShortName('');
      setPayloadUrl('');
      setFile(null);
      setFormKey((k) => k + 1);
    })();
    action.run(request, `Created ${fullName.trim()}.`);
  };
  return (
    <form
      key={formKey}
      className="admin-form create-bot"
      aria-label="Add a new bot"
      onSubmit={submit}
    >
      <h3>Add a new bot</h3>
      <label>
        <span className="field-label">Bot type</span>
        <select value={botType} onChange={(e) => setBotType(Number(e.target.value) as 1 | 2 | 3)}>
          {BOT_TYPES.filter(([id]) => !onlyWebhooks || id === 2).map(([id, label, help]) => (
            <option key={id} value={id} title={help}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="field-label">Name</span>
        <input
          value={fullName}
          onChange={(e) => setFullName(e.target.value)}
          placeholder="Cookie Bot"
        />
      </label>
      <label>
        <span className="field-label">Bot email</span>
        <span className="email-input">
          <input
            value={shortName}
            onChange={(e) => setShortName(e.target.value)}
            placeholder="cookie"
            aria-label="Bot email"
          />
          <span className="muted">-bot@…</span>
        </span>
      </label>
      {botType === 3 ? (
        <ServiceFields
          url={payloadUrl}
          onUrl={setPayloadUrl}
          format={interfaceType}
          onFormat={setInterfaceType}
        />
      ) : null}
      <label>
        <span className="field-label">Avatar</span>
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-label="Avatar"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </label>
      <StatusLine action={action} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={action.busy}>
          Create bot
        </button>
      </div>
    </form>
  );
}

function BotCard({ accountId, bot, admin }: { accountId: string; bot: RealmBot; admin: boolean }) {
  const user = useChatStore((s) => selectActiveAccount(s)?.users.users.get(bot.user_id));
  const [key, setKey] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const action = useAdminAction();
  const reveal = (request: Promise<{ apiKey: string }>, done: string) =>
    action.run(
      request.then((res) => setKey(res.apiKey)),
      done,
    );
  return (
    <li className={`bot-card${bot.is_active ? '' : ' inactive'}`} aria-label={bot.full_name}>
      <div className="bot-card-head">
        {avatar(accountId, user, bot.full_name, 'bot-avatar')}
        <div>
          <strong>{bot.full_name}</strong>
          <div className="muted">{bot.email}</div>
          <div className="muted">
            {typeName(bot.bot_type)}
            {bot.is_active ? '' : ' · deactivated'}
          </div>
        </div>
      </div>
      {bot.bot_type === 3 && bot.services[0] ? <OutgoingService bot={bot} /> : null}
      {bot.is_active ? (
        <div className="bot-actions">
          <button
            type="button"
            onClick={() =>
              reveal(
                api().showBotKey({ accountId, botId: bot.user_id }),
                'Copy the key now: it is not shown again.',
              )
            }
          >
            Show API key
          </button>
          <button
            type="button"
            onClick={() => {
              if (
                window.confirm(
                  `Regenerate the API key of ${bot.full_name}? The old key stops working.`,
                )
              )
                reveal(
                  api().regenerateBotKey({ accountId, botId: bot.user_id }),
                  'New key generated. Copy it now.',
                );
            }}
          >
            Regenerate API key
          </button>
          <button
            type="button"
            onClick={() =>
              action.run(downloadZuliprc(accountId, bot.user_id), 'zuliprc downloaded.')
            }
          >
            Download zuliprc
          </button>
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button
            type="button"
            className="danger"
            onClick={() =>
              action.run(api().deactivateBot({ accountId, botId: bot.user_id }), 'Bot deactivated.')
            }
          >
            Deactivate
          </button>
        </div>
      ) : admin ? (
        <div className="bot-actions">
          <button
            type="button"
            onClick={() =>
              action.run(api().reactivateBot({ accountId, botId: bot.user_id }), 'Bot reactivated.')
            }
          >
            Reactivate
          </button>
        </div>
      ) : null}
      {editing ? (
        <EditBot
          accountId={accountId}
          bot={bot}
          action={action}
          onClose={() => setEditing(false)}
        />
      ) : null}
      {key !== null ? (
        <div className="api-key" role="group" aria-label="API key">
          <code data-testid="bot-api-key">{key}</code>
          <button type="button" onClick={() => void navigator.clipboard.writeText(key)}>
            Copy
          </button>
          <button type="button" onClick={() => setKey(null)}>
            Done
          </button>
        </div>
      ) : null}
      <StatusLine action={action} />
    </li>
  );
}

/** An outgoing webhook bot's endpoint URL and payload format, in the create and edit forms. */
function ServiceFields(props: {
  url: string;
  onUrl: (url: string) => void;
  format: 1 | 2;
  onFormat: (format: 1 | 2) => void;
}) {
  return (
    <>
      <label>
        <span className="field-label">Endpoint URL</span>
        <input
          value={props.url}
          onChange={(e) => props.onUrl(e.target.value)}
          placeholder="https://example.com/hook"
        />
      </label>
      <label>
        <span className="field-label">Outgoing webhook message format</span>
        <select
          value={props.format}
          onChange={(e) => props.onFormat(Number(e.target.value) as 1 | 2)}
        >
          {OUTGOING_WEBHOOK_INTERFACES.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/**
 * An outgoing webhook bot's service, as its owner needs it to set up the endpoint: where the
 * server posts, in which format, and the token each payload carries (what the endpoint checks).
 */
function OutgoingService({ bot }: { bot: RealmBot }) {
  const service = bot.services[0];
  return (
    <dl className="bot-service" aria-label={`${bot.full_name} outgoing webhook`}>
      <dt>Endpoint URL</dt>
      <dd data-testid="bot-endpoint-url">{service.base_url ?? ''}</dd>
      <dt>Format</dt>
      <dd data-testid="bot-interface">{interfaceName(service.interface)}</dd>
      {service.token ? (
        <>
          <dt>Token</dt>
          <dd>
            <code data-testid="bot-service-token">{service.token}</code>{' '}
            <button
              type="button"
              className="small"
              onClick={() => void navigator.clipboard.writeText(service.token ?? '')}
            >
              Copy
            </button>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * Edit a bot: its name, an outgoing webhook's endpoint and format, a new avatar. Only changes are
 * sent; the endpoint and format go together, as the public server takes the format only with a URL.
 */
function EditBot({
  accountId,
  bot,
  action,
  onClose,
}: {
  accountId: string;
  bot: RealmBot;
  action: AdminAction;
  onClose: () => void;
}) {
  const [name, setName] = useState(bot.full_name);
  const currentUrl = bot.services[0]?.base_url ?? '';
  const currentInterface = bot.services[0]?.interface === 2 ? 2 : 1;
  const [url, setUrl] = useState(currentUrl);
  const [interfaceType, setInterfaceType] = useState<1 | 2>(currentInterface);
  const [file, setFile] = useState<File | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return action.fail('Give the bot a name.');
    const outgoing = bot.bot_type === 3;
    if (outgoing && normalizePayloadUrl(url) === null)
      return action.fail(notAUrl('service_payload_url'));
    const serviceChanged =
      outgoing && (url.trim() !== currentUrl || interfaceType !== currentInterface);
    const problem = avatarProblem(file);
    if (problem) return action.fail(problem);
    const request = (async () => {
      const avatarToken = file ? (await window.tributary.intakeFile(file)).token : undefined;
      await api().updateBot({
        accountId,
        botId: bot.user_id,
        ...(name.trim() !== bot.full_name ? { fullName: name.trim() } : {}),
        ...(serviceChanged ? { payloadUrl: url.trim(), interfaceType } : {}),
        ...(avatarToken ? { avatarToken } : {}),
      });
      onClose();
    })();
    action.run(request, 'Saved.');
  };
  return (
    <form className="admin-form edit-bot" aria-label={`Edit ${bot.full_name}`} onSubmit={submit}>
      <label>
        <span className="field-label">Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      </label>
      {bot.bot_type === 3 ? (
        <ServiceFields
          url={url}
          onUrl={setUrl}
          format={interfaceType}
          onFormat={setInterfaceType}
        />
      ) : null}
      <label>
        <span className="field-label">New avatar</span>
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </label>
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={action.busy}>
          Save changes
        </button>
      </div>
    </form>
  );
}

/** Main saves it (desktop); in browser mode the page downloads the text main returned. */
async function downloadZuliprc(accountId: string, botId: number): Promise<void> {
  const result = await api().saveBotZuliprc({ accountId, botId });
  if (result && 'content' in result) {
    const url = URL.createObjectURL(new Blob([result.content], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = result.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Organization > Bots: every bot of the realm. */
export function BotList({ accountId }: { accountId: string }) {
  const account = useChatStore(selectActiveAccount);
  const [showDeactivated, setShowDeactivated] = useState(true);
  const action = useAdminAction();
  if (!account) return null;
  const admin = isRealmAdmin(account);
  const users = account.users.users;
  const bots: User[] = [...users.values()]
    // Cross-realm system bots have no owner and are not the organization's.
    .filter((u) => u.is_bot && u.bot_owner_id !== null)
    .filter((u) => showDeactivated || u.is_active)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <section className="admin-screen" aria-label="Bots">
      <header className="admin-header">
        <h2>Bots</h2>
      </header>
      <p className="muted">
        {admin
          ? 'Every bot in the organization. Create your own under Personal settings › Your bots.'
          : 'Every bot in the organization. Only administrators can deactivate other people’s bots.'}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={showDeactivated}
          onChange={(e) => setShowDeactivated(e.target.checked)}
        />
        Show deactivated bots
      </label>
      <StatusLine action={action} />
      <table className="admin-table" aria-label="All bots">
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Owner</th>
            {admin ? <th>Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {bots.map((bot) => (
            <tr
              key={bot.user_id}
              data-testid={`admin-bot-${bot.user_id}`}
              className={bot.is_active ? '' : 'inactive'}
            >
              <td>
                <span className="row-name">
                  {avatar(accountId, bot, bot.full_name, 'bot-avatar small')}
                  <span>
                    {bot.full_name}
                    <div className="muted small-text">{bot.email}</div>
                  </span>
                </span>
              </td>
              <td>{typeName(bot.bot_type)}</td>
              <td>
                {bot.bot_owner_id !== null ? (users.get(bot.bot_owner_id)?.full_name ?? '') : ''}
              </td>
              {admin ? (
                <td>
                  {bot.is_active ? (
                    <button
                      type="button"
                      className="danger small"
                      aria-label={`Deactivate ${bot.full_name}`}
                      onClick={() =>
                        action.run(
                          api().deactivateBot({ accountId, botId: bot.user_id }),
                          `${bot.full_name} deactivated.`,
                        )
                      }
                    >
                      Deactivate
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="small"
                      aria-label={`Reactivate ${bot.full_name}`}
                      onClick={() =>
                        action.run(
                          api().reactivateBot({ accountId, botId: bot.user_id }),
                          `${bot.full_name} reactivated.`,
                        )
                      }
                    >
                      Reactivate
                    </button>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
