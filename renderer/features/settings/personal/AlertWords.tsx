// Alert words: words that mark a message as alerting you, like a mention (the server sets the
// has_alert_word flag). The list is the store's, which follows alert_words events.
import { useState } from 'react';
import { MAX_ALERT_WORD_LENGTH } from '../../../../shared/ipc/personal';
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { api, errorText } from '../../../bridge/api';
import { ActionsHeader } from './ActionsHeader';

export function AlertWords({ accountId }: { accountId: string }) {
  const words = useChatStore((s) => selectActiveAccount(s)?.settings.alertWords);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const report = (work: Promise<unknown>) =>
    work.then(() => setError(null)).catch((e: unknown) => setError(errorText(e)));
  const add = () => {
    const word = text.trim();
    if (word === '') return setError('Type a word or phrase.');
    if ([...word].length > MAX_ALERT_WORD_LENGTH) {
      return setError(`An alert word can be at most ${MAX_ALERT_WORD_LENGTH} characters.`);
    }
    if (words?.some((w) => w.toLowerCase() === word.toLowerCase())) {
      return setError(`“${word}” is already an alert word.`);
    }
    void report(
      api()
        .addAlertWords({ accountId, words: [word] })
        .then(() => setText('')),
    );
  };
  return (
    <section className="settings-section" aria-label="Alert words">
      <h2>Alert words</h2>
      <p className="setting-hint">
        Alert words notify you as mentions do, whenever they appear in a message (not case
        sensitive).
      </p>
      <form
        className="alert-word-form"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label>
          <span className="setting-label">New alert word</span>
          <input
            type="text"
            value={text}
            maxLength={MAX_ALERT_WORD_LENGTH * 2}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit">Add alert word</button>
      </form>
      {error ? <p role="alert">{error}</p> : null}
      {words && words.length > 0 ? (
        <table className="settings-table" aria-label="Your alert words">
          <thead>
            <tr>
              <th>Word</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {words.map((word) => (
              <tr key={word}>
                <td>{word}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Delete alert word ${word}`}
                    onClick={() =>
                      void report(api().removeAlertWords({ accountId, words: [word] }))
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="settings-empty">You have no alert words.</p>
      )}
    </section>
  );
}
