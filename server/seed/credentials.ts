// DIR/demo-credentials.json: how tests, benches and npm start sign in to a seeded realm.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SeededCredential {
  user_id: number;
  email: string;
  full_name: string;
  role: number;
  api_key: string;
  password: string | null;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
}

export function credentialsPath(dataDir: string): string {
  return join(dataDir, 'demo-credentials.json');
}

export function writeCredentials(dataDir: string, users: SeededCredential[]): void {
  writeFileSync(credentialsPath(dataDir), JSON.stringify({ users }, null, 2) + '\n', {
    mode: 0o600,
  });
}

/** The seeded people's passwords by email, from the file (empty if it is missing or unreadable). */
export function readSeededPasswords(dataDir: string): Map<string, string> {
  const passwords = new Map<string, string>();
  try {
    const file = JSON.parse(readFileSync(credentialsPath(dataDir), 'utf8')) as {
      users?: SeededCredential[];
    };
    for (const user of file.users ?? []) {
      if (typeof user.password === 'string') passwords.set(user.email, user.password);
    }
  } catch {
    // No file (a realm seeded elsewhere): nothing to resume.
  }
  return passwords;
}
