// The feedback widget after a topic action, end to end below the browser: the topic menu goes
// through the real browser-mode bridge and main to the real local realm server. Muting a topic says
// so with an undo, as the public web app's feedback widget does; the undo restores the policy the
// topic had, on the server; copying a topic's link says it was copied.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { TopicMenu } from '../../../renderer/features/topics/TopicMenu';
import { FeedbackToast } from '../../../renderer/lib/ui/feedback';
import { selectActiveAccount, topicVisibility } from '../../../renderer/store';
import { Providers, resetUi } from './harness';
import { liveAccountForFile } from './live-realm';

const liveAccount = liveAccountForFile();
afterEach(cleanup);

function showMenu(topic: string) {
  const live = liveAccount();
  resetUi(live.accountId);
  render(
    <Providers store={live.store}>
      <TopicMenu accountId={live.accountId} streamId={live.channelId('general')} topic={topic} />
      <FeedbackToast />
    </Providers>,
  );
}

const policyOf = (topic: string) => {
  const live = liveAccount();
  const account = selectActiveAccount(live.store.getState());
  return account ? topicVisibility(account.userTopics, live.channelId('general'), topic) : -1;
};

function choose(topic: string, item: string) {
  fireEvent.click(screen.getByRole('button', { name: `Topic ${topic} options` }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

describe('feedback after topic actions', () => {
  it('offers to undo a mute, and the undo puts back what the topic had (followed)', async () => {
    const topic = 'feedback mute';
    const live = liveAccount();
    await live.realm
      .client('owner')
      .post('/messages', { type: 'stream', to: live.channelId('general'), topic, content: 'hi' });
    showMenu(topic);
    choose(topic, 'Follow topic');
    await waitFor(() => expect(policyOf(topic)).toBe(3));
    // Following says nothing (nothing to regret), as in the web app.
    expect(document.querySelector('.feedback-toast')).toBeNull();

    choose(topic, 'Mute topic');
    const toast = (await screen.findByText('Topic muted')).closest<HTMLElement>('.feedback-toast')!;
    expect(toast.textContent).toContain(`You muted #general > ${topic}.`);
    await waitFor(() => expect(policyOf(topic)).toBe(1));
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo mute' }));
    await waitFor(() => expect(policyOf(topic)).toBe(3));
    await waitFor(() => expect(screen.queryByText('Topic muted')).toBeNull());
  });

  it('says a copied link was copied', async () => {
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void writes.push(text) },
    });
    showMenu('lunch');
    choose('lunch', 'Copy link to topic');
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(writes[0]).toContain('/topic/lunch');
  });
});
