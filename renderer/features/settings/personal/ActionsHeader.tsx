/** The header of a settings table's last column, whose cells hold buttons: named for screen readers. */
export function ActionsHeader() {
  return (
    <th>
      <span className="visually-hidden">Actions</span>
    </th>
  );
}
