// The top bar: a compact, icon-led navigation bar as desktop chat clients have. The views (the same
// places the left sidebar lists, reachable here when the sidebar is folded away), search, status,
// settings, the app menu (meeting viewer, shortcuts, the welcome panel) and the people-list toggle.
// Every icon button has an accessible name and a tooltip saying the same.
import { forwardRef, type ReactNode, type RefObject } from 'react';
import { DropdownMenu, Tooltip } from 'radix-ui';
import {
  AtSign,
  CalendarClock,
  Clock,
  EllipsisVertical,
  Inbox,
  Menu,
  MessagesSquare,
  PencilLine,
  Settings,
  Smile,
  Star,
  Users,
} from 'lucide-react';
import { narrowKey } from '../../shared/narrow';
import { navigate, uiStore, useUi, type Route } from '../store/ui-store';
import { SearchBox } from '../features/search/SearchBox';
import { OfflineIndicator } from '../features/connection/OfflineIndicator';
import { showWelcome } from '../features/help/welcome';

type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement>;

/** An icon button whose accessible name is also its tooltip. */
const IconButton = forwardRef<HTMLButtonElement, ButtonProps & { label: string; icon: ReactNode }>(
  function IconButton({ label, icon, className, ...rest }, ref) {
    return (
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <button
            ref={ref}
            type="button"
            className={`topbar-icon${className ? ` ${className}` : ''}`}
            aria-label={label}
            {...rest}
          >
            {icon}
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="tooltip" side="bottom" sideOffset={4}>
            {label}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    );
  },
);

const ICON = { size: 18, 'aria-hidden': true } as const;

const VIEWS: Array<{ label: string; route: Route; icon: ReactNode }> = [
  { label: 'Inbox', route: { kind: 'inbox' }, icon: <Inbox {...ICON} /> },
  { label: 'Recent conversations', route: { kind: 'recent' }, icon: <Clock {...ICON} /> },
  {
    label: 'All messages',
    route: { kind: 'narrow', narrow: [] },
    icon: <MessagesSquare {...ICON} />,
  },
  {
    label: 'Mentions',
    route: { kind: 'narrow', narrow: [{ operator: 'is', operand: 'mentioned' }] },
    icon: <AtSign {...ICON} />,
  },
  {
    label: 'Starred messages',
    route: { kind: 'narrow', narrow: [{ operator: 'is', operand: 'starred' }] },
    icon: <Star {...ICON} />,
  },
  { label: 'Drafts', route: { kind: 'drafts' }, icon: <PencilLine {...ICON} /> },
  { label: 'Scheduled messages', route: { kind: 'scheduled' }, icon: <CalendarClock {...ICON} /> },
];

const routeKey = (r: Route) => (r.kind === 'narrow' ? narrowKey(r.narrow) : r.kind);

export function TopBar({
  searchRef,
  sidebarInline,
  sidebarOpen,
  peopleShown,
  onToggleSidebar,
  onTogglePeople,
}: {
  searchRef: RefObject<HTMLInputElement | null>;
  sidebarInline: boolean;
  sidebarOpen: boolean;
  peopleShown: boolean;
  onToggleSidebar: () => void;
  onTogglePeople: () => void;
}) {
  const current = useUi((s) => routeKey(s.route));
  return (
    <Tooltip.Provider delayDuration={400}>
      <header className="topbar">
        {sidebarInline ? null : (
          <IconButton
            label="Conversations"
            icon={<Menu {...ICON} />}
            className="sidebar-toggle"
            aria-expanded={sidebarOpen}
            onClick={onToggleSidebar}
          />
        )}
        <nav className="topbar-views" aria-label="Views">
          {VIEWS.map((v) => (
            <IconButton
              key={v.label}
              label={v.label}
              icon={v.icon}
              aria-current={current === routeKey(v.route) ? 'page' : undefined}
              onClick={() => navigate(v.route)}
            />
          ))}
        </nav>
        <SearchBox ref={searchRef} />
        <OfflineIndicator />
        <IconButton
          label="Set status"
          icon={<Smile {...ICON} />}
          onClick={() => uiStore.setState({ overlay: { kind: 'status' } })}
        />
        <IconButton
          label="Settings"
          icon={<Settings {...ICON} />}
          onClick={() => navigate({ kind: 'settings' })}
        />
        <AppMenu />
        <IconButton
          label="People"
          icon={<Users {...ICON} />}
          className="people-toggle"
          aria-pressed={peopleShown}
          onClick={onTogglePeople}
        />
      </header>
    </Tooltip.Provider>
  );
}

/** What is used now and then: the meeting viewer, the shortcuts, the welcome panel again. */
function AppMenu() {
  return (
    <DropdownMenu.Root>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <DropdownMenu.Trigger asChild>
            <button type="button" className="topbar-icon" aria-label="Main menu">
              <EllipsisVertical {...ICON} />
            </button>
          </DropdownMenu.Trigger>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="tooltip" side="bottom" sideOffset={4}>
            Main menu
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu app-menu" align="end" sideOffset={4}>
          <DropdownMenu.Item onSelect={() => navigate({ kind: 'manifest' })}>
            Open meeting manifest…
          </DropdownMenu.Item>
          <DropdownMenu.Item onSelect={() => uiStore.setState({ overlay: { kind: 'help' } })}>
            Keyboard shortcuts
          </DropdownMenu.Item>
          <DropdownMenu.Item onSelect={showWelcome}>Welcome and things to try</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
