// The compose box starts closed, as in the public web app (features/compose/ClosedCompose.tsx):
// tests that type in it open it first with the bar's button, unless a draft already opened it.
import { fireEvent, screen } from '@testing-library/react';

export function openCompose(): void {
  const reply = screen.queryByTestId('compose-reply');
  if (reply) fireEvent.click(reply);
}
