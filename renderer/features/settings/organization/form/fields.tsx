// Small pieces every organization screen repeats: a labelled checkbox (with its save status
// beside it), and a table's "nothing here" row.
import type { ReactNode } from 'react';

export function CheckboxField({
  label,
  checked,
  disabled,
  onChange,
  status,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  status?: ReactNode;
}) {
  return (
    <>
      <label>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {status}
    </>
  );
}

export function EmptyRow({ columns, text }: { columns: number; text: string }) {
  return (
    <tr>
      <td colSpan={columns} className="org-hint">
        {text}
      </td>
    </tr>
  );
}
