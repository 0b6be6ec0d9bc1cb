// The public web app's feedback widget: after an action whose effect is easy to miss or to regret
// (a topic muted, a link copied), a short note at the bottom of the window says what happened, with
// an undo where the web app has one. Radix's Toast: announced politely to screen readers, F8 reaches
// it from the keyboard, Esc or the × closes it, and it leaves by itself after a few seconds.
import { Toast } from 'radix-ui';
import { X } from 'lucide-react';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { errorText } from '../../bridge/api';

export interface Feedback {
  title: string;
  text?: string;
  undo?: { label: string; run: () => Promise<unknown> };
}

interface FeedbackState {
  /** The note shown; a new one replaces it (its key restarts the timer). */
  current: (Feedback & { key: number }) | null;
  /** Why the last undo failed. */
  undoError: string | null;
}

const feedbackStore = createStore<FeedbackState>()(() => ({ current: null, undoError: null }));
let nextKey = 1;

export function showFeedback(feedback: Feedback): void {
  feedbackStore.setState({ current: { ...feedback, key: nextKey++ }, undoError: null });
}

export function clearFeedback(): void {
  feedbackStore.setState({ current: null, undoError: null });
}

/** Mounted once, by the shell. */
export function FeedbackToast() {
  const { current, undoError } = useStore(feedbackStore);
  const undo = current?.undo;
  return (
    <Toast.Provider duration={6000} label="Feedback">
      {current ? (
        <Toast.Root
          key={current.key}
          className="feedback-toast"
          open
          onOpenChange={(open) => !open && clearFeedback()}
        >
          <Toast.Title className="feedback-title">{current.title}</Toast.Title>
          {current.text ? (
            <Toast.Description className="feedback-text">{current.text}</Toast.Description>
          ) : null}
          {undoError ? <p className="feedback-text error">{undoError}</p> : null}
          <div className="feedback-buttons">
            {undo ? (
              <Toast.Action altText={undo.label} asChild>
                <button
                  type="button"
                  onClick={(e) => {
                    // Closed once the undo is done; a failure stays to be read.
                    e.preventDefault();
                    undo
                      .run()
                      .then(clearFeedback, (error: unknown) =>
                        feedbackStore.setState({ undoError: errorText(error) }),
                      );
                  }}
                >
                  {undo.label}
                </button>
              </Toast.Action>
            ) : null}
            <Toast.Close className="feedback-close" aria-label="Close">
              <X aria-hidden="true" />
            </Toast.Close>
          </div>
        </Toast.Root>
      ) : null}
      {/* Not "Notifications", Radix's default: that names Settings' notification section. */}
      <Toast.Viewport className="feedback-viewport" label="Feedback ({hotkey})" />
    </Toast.Provider>
  );
}
