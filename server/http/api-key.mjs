// How an API key is made: plain JavaScript, so npm start's launcher can make a first realm's owner
// key before any bundle loads (server/process/fork-realm.mjs) exactly as the server makes keys.
import { randomBytes } from 'node:crypto';

/** 32 alphanumeric characters, like the API's keys. */
export function generateApiKey() {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let key = '';
  for (const byte of randomBytes(32)) key += alphabet[byte % alphabet.length];
  return key;
}

/** Whether `key` has the form generateApiKey gives (a key handed in from outside is checked). */
export function isApiKeyForm(key) {
  return typeof key === 'string' && /^[A-Za-z0-9]{32}$/.test(key);
}
