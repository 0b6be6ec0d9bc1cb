// Creating an account directly (POST /users): administrators with the can_create_users
// permission (the demo realm's owner has it). The new person signs in with this password.
import { useState } from 'react';
import { api, errorText } from '../../../bridge/api';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function CreateUserForm({ accountId, onClose }: { accountId: string; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const problem = !EMAIL.test(email.trim())
    ? 'Enter an email address.'
    : fullName.trim() === ''
      ? 'Enter a name.'
      : password.length < 6
        ? 'The password needs at least 6 characters.'
        : null;
  return (
    <form
      className="org-subsection org-create-user"
      aria-label="Add a new user"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (problem) return;
        setRefusal(null);
        setCreated(null);
        api()
          .createUser({ accountId, email: email.trim(), fullName: fullName.trim(), password })
          .then(() => {
            setCreated(`${fullName.trim()} can now sign in as ${email.trim()}.`);
            setEmail('');
            setFullName('');
            setPassword('');
            setTried(false);
          })
          .catch((error: unknown) => setRefusal(errorText(error)));
      }}
    >
      <h3>Add a new user</h3>
      <p className="org-hint">
        Needs the “can create users” permission (the server refuses otherwise).
      </p>
      <div className="org-inline-fields">
        <label className="org-field">
          <span>Email</span>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="org-field">
          <span>Name</span>
          <input value={fullName} onChange={(e) => setFullName(e.target.value)} />
        </label>
        <label className="org-field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" className="primary">
          Create user
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {tried && problem ? <p className="org-problem">{problem}</p> : null}
      {refusal ? <p role="alert">{refusal}</p> : null}
      {created ? <p className="org-saved">{created}</p> : null}
    </form>
  );
}
