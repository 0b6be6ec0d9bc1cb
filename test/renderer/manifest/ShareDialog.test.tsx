// The share dialog's roles: what it says from its first frame is read with the dialog (no alert
// role, which screen readers announce as an interruption); a refusal that arrives later is an alert.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShareDialog } from '../../../renderer/features/manifest/ShareDialog';
import { TributaryError } from '../../../shared/ipc/errors';

let refuseFiles = false;
beforeEach(() => {
  refuseFiles = false;
  (window as unknown as { tributary: unknown }).tributary = {
    meetingShareFiles: async () => {
      if (refuseFiles) throw new TributaryError({ code: 'NOT_FOUND', msg: 'the meeting is gone' });
      return [];
    },
  };
});
afterEach(cleanup);

describe('ShareDialog', () => {
  it('says that sharing needs an account as part of the dialog, not as an alert', async () => {
    render(<ShareDialog sessionId="s1" defaultTopic="Standup" onClose={() => undefined} />);
    const note = await screen.findByText('Sign in to an account to share this meeting.');
    expect(note.closest('[role="alert"]')).toBeNull();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('keeps the alert for files that could not be listed', async () => {
    refuseFiles = true;
    render(<ShareDialog sessionId="s1" defaultTopic="Standup" onClose={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toContain('the meeting is gone');
  });
});
