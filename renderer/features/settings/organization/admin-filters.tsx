// The filter row above the channel and user group lists: a search box and a checkbox that brings
// back the archived or deactivated rows the list hides by default.
export function AdminFilters({
  what,
  search,
  onSearch,
  toggleLabel,
  toggled,
  onToggle,
}: {
  /** Names the list in the search box, e.g. "channels" for "Filter channels". */
  what: string;
  search: string;
  onSearch: (value: string) => void;
  toggleLabel: string;
  toggled: boolean;
  onToggle: (checked: boolean) => void;
}) {
  return (
    <div className="admin-filters">
      <input
        type="search"
        aria-label={`Filter ${what}`}
        placeholder={`Filter ${what}`}
        value={search}
        onChange={(e) => onSearch(e.target.value)}
      />
      <label className="checkbox">
        <input type="checkbox" checked={toggled} onChange={(e) => onToggle(e.target.checked)} />
        {toggleLabel}
      </label>
    </div>
  );
}
