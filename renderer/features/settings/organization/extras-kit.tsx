// Pieces the custom emoji, linkifier, playground, domain and profile field screens share: who the
// signed-in person is to the realm, running a change through main while showing the server's
// refusal, a delete that asks once more, moving a row up or down a reorderable list, and choosing
// an image with a local preview (custom emoji, the organization icon).
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { isInGroupSetting } from '../../../../shared/group-setting';
import type { GroupSettingValue } from '../../../../shared/api/types';
import type { AccountState } from '../../../store';
import { errorText } from '../../../bridge/api';
import { isNotGuest, isRealmAdmin, isRealmOwner } from '../../channels/channel-permissions';

export interface Standing {
  isOwner: boolean;
  isAdmin: boolean;
  /** The realm's can_add_custom_emoji_group (guests never may). */
  canAddEmoji: boolean;
  selfUserId: number;
}

type StandingInputs = Pick<AccountState, 'selfUserId' | 'users' | 'userGroups' | 'settings'>;

export function standing(account: StandingInputs): Standing {
  const emojiGroup = account.settings.realm.realm_can_add_custom_emoji_group as
    GroupSettingValue | undefined;
  return {
    isOwner: isRealmOwner(account),
    isAdmin: isRealmAdmin(account),
    canAddEmoji:
      isNotGuest(account) &&
      isInGroupSetting(account.userGroups.groups, emojiGroup, account.selfUserId),
    selfUserId: account.selfUserId,
  };
}

/**
 * Runs a change and keeps the server's refusal to show; `run` resolves whether it was accepted,
 * so a form clears only after success.
 */
export function useChange() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (change: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await change();
      setError(null);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, setError, busy, run };
}

export function Refusal({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="admin-error">
      {error}
    </p>
  ) : null;
}

/** Shown instead of the edit controls to those the realm does not let change the list. */
export function ReadOnlyNote({ children }: { children: ReactNode }) {
  return <p className="admin-note">{children}</p>;
}

/** Delete, then "Delete <what>?" with Confirm and Cancel (the public app asks in a modal). */
export function DeleteButton({
  what,
  onDelete,
  disabled,
}: {
  what: string;
  onDelete: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="admin-danger"
        aria-label={`Delete ${what}`}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        Delete
      </button>
    );
  }
  return (
    <span className="admin-confirm" role="group" aria-label={`Delete ${what}?`}>
      <button
        type="button"
        className="admin-danger"
        onClick={() => {
          setAsking(false);
          onDelete();
        }}
      >
        Confirm delete
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** The ids with the one at `index` moved by `step` (-1 up, +1 down); null at either end. */
export function moved(ids: readonly number[], index: number, step: -1 | 1): number[] | null {
  const target = index + step;
  if (target < 0 || target >= ids.length) return null;
  const next = [...ids];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

export function MoveButtons({
  what,
  ids,
  index,
  onMove,
}: {
  what: string;
  ids: readonly number[];
  index: number;
  onMove: (ordered: number[]) => void;
}) {
  const up = moved(ids, index, -1);
  const down = moved(ids, index, 1);
  return (
    <>
      <button
        type="button"
        className="admin-icon"
        aria-label={`Move ${what} up`}
        title="Move up"
        disabled={!up}
        onClick={() => up && onMove(up)}
      >
        ↑
      </button>
      <button
        type="button"
        className="admin-icon"
        aria-label={`Move ${what} down`}
        title="Move down"
        disabled={!down}
        onClick={() => down && onMove(down)}
      >
        ↓
      </button>
    </>
  );
}

/** Case-insensitive match of a filter box against some of a row's texts. */
export function matchesFilter(filter: string, ...texts: Array<string | null | undefined>): boolean {
  const needle = filter.trim().toLowerCase();
  return needle === '' || texts.some((t) => t?.toLowerCase().includes(needle));
}

/** A narrow column's heading is given as [text, 'narrow']. */
export type Column = string | [string, 'narrow'];

/**
 * The list under a screen's add form: a heading with a filter box (when `filter` is given), the
 * table with its column headings (an unlabelled actions column when `actions`), the rows, and a
 * line saying the list is empty.
 */
export function ListTable({
  label,
  heading,
  filter,
  columns,
  actions,
  emptyText,
  children,
}: {
  label: string;
  heading?: string;
  filter?: { label: string; value: string; onChange: (value: string) => void };
  columns: readonly Column[];
  /** 'delete' when the only action is Delete (a narrower column). */
  actions: boolean | 'delete';
  /** Shown as the only row when there are no rows. */
  emptyText: string | null;
  children: ReactNode;
}) {
  return (
    <>
      {heading || filter ? (
        <div className="admin-table-head">
          {heading ? <h3>{heading}</h3> : <span />}
          {filter ? (
            <input
              type="search"
              placeholder="Filter"
              aria-label={filter.label}
              value={filter.value}
              onChange={(e) => filter.onChange(e.target.value)}
            />
          ) : null}
        </div>
      ) : null}
      <table className="admin-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column}>{column}</th>
              ) : (
                <th key={column[0]} className="admin-narrow">
                  {column[0]}
                </th>
              ),
            )}
            {actions ? (
              <th className={actions === 'delete' ? 'admin-actions admin-slim' : 'admin-actions'}>
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {children}
          {emptyText !== null ? (
            <tr>
              <td colSpan={columns.length + (actions ? 1 : 0)} className="admin-empty">
                {emptyText}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </>
  );
}

/** A row's actions cell: move up/down (reorderable lists), Edit, and Delete with confirmation. */
export function RowActions({
  what,
  order,
  onEdit,
  onDelete,
}: {
  what: string;
  order?: { ids: readonly number[]; index: number; onMove: (ordered: number[]) => void };
  onEdit?: () => void;
  onDelete: () => void;
}) {
  return (
    <td className="admin-actions">
      {order ? <MoveButtons what={what} {...order} /> : null}
      {onEdit ? (
        <button type="button" aria-label={`Edit ${what}`} onClick={onEdit}>
          Edit
        </button>
      ) : null}
      <DeleteButton what={what} onDelete={onDelete} />
    </td>
  );
}

/** The image types the server accepts (it checks the bytes too). */
export const IMAGE_TYPES = 'image/png,image/gif,image/jpeg,image/webp';

/** A file input for one image; a new `resetKey` empties it (after a send or cancel). */
export function ImageFileInput({
  resetKey,
  onPick,
}: {
  resetKey: number;
  onPick: (file: File | null) => void;
}) {
  return (
    <input
      key={resetKey}
      type="file"
      accept={IMAGE_TYPES}
      onChange={(e) => onPick(e.target.files?.[0] ?? null)}
    />
  );
}

/** A blob: URL showing the chosen file before it is sent, released when the choice changes. */
export function useLocalPreview(file: File | null): string | null {
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  return preview;
}
