// A tooltip that repeats a button's accessible name (an icon button's words for the pointer), on
// Radix's Tooltip. Needs a Tooltip.Provider around it, as the top bar has.
import type { ReactNode } from 'react';
import { Tooltip } from 'radix-ui';

export function NameTooltip({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip" side="bottom" sideOffset={4}>
          {label}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}
