// The browser-mode host's import of messages pages of an earlier launch left sealed in cookies
// (electron/host/unsent-handover.ts): sealed as the page seals them (Web Crypto AES-GCM with a key
// from the bridge secret), opened only with a secret this data folder had, untouched when forged
// or foreign, and cleared once handed over.
import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importUnsent, openSealed } from '../../electron/host/unsent-handover';
import { UNSENT_COOKIE_PREFIX, UNSENT_KEY_LABEL } from '../../shared/ipc/wire';
import type { Dispatch } from '../../electron/ipc/dispatch';

async function sealAsThePageDoes(secret: string, messages: unknown[]): Promise<string> {
  const digest = await webcrypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${UNSENT_KEY_LABEL}${secret}`),
  );
  const key = await webcrypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt']);
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const sealed = await webcrypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    key,
    new TextEncoder().encode(JSON.stringify({ v: 1, messages })),
  );
  return Buffer.concat([iv, Buffer.from(sealed)]).toString('base64url');
}

const message = {
  accountId: 'acct',
  localId: 'local-1',
  message: { type: 'channel', to: 1, topic: 't', content: 'kept' },
  createdAt: 1,
};

describe('importing sealed unsent messages', () => {
  it('opens what a page sealed with a known secret, and nothing else', async () => {
    const value = await sealAsThePageDoes('old-secret', [message]);
    expect(openSealed(value, ['new-secret', 'old-secret'])?.messages).toEqual([message]);
    expect(openSealed(value, ['someone-elses'])).toBeNull();
    const flipped = Buffer.from(value, 'base64url');
    flipped[20] ^= 1;
    expect(openSealed(flipped.toString('base64url'), ['old-secret'])).toBeNull();
  });

  it('hands each message to sendMessage and clears only the groups it opened', async () => {
    const value = await sealAsThePageDoes('old-secret', [message]);
    const foreign = await sealAsThePageDoes('other', [message]);
    const half = Math.ceil(value.length / 2);
    const header = [
      `other=1`,
      `${UNSENT_COOKIE_PREFIX}4100-1=${value.slice(half)}`,
      `${UNSENT_COOKIE_PREFIX}4100-0=${value.slice(0, half)}`,
      `${UNSENT_COOKIE_PREFIX}4200-0=${foreign}`,
    ].join('; ');
    const calls: unknown[] = [];
    const dispatch: Dispatch = async (method, payload) => {
      calls.push([method, payload]);
      return { ok: true, value: null };
    };
    const result = await importUnsent(header, ['new-secret', 'old-secret'], dispatch);
    expect(calls).toEqual([
      ['sendMessage', { accountId: 'acct', localId: 'local-1', message: message.message }],
    ]);
    expect(result).toEqual({
      handedOver: 1,
      clear: [`${UNSENT_COOKIE_PREFIX}4100-0`, `${UNSENT_COOKIE_PREFIX}4100-1`],
    });
  });

  it('keeps a group whose messages the app could not take yet', async () => {
    const value = await sealAsThePageDoes('s', [message]);
    const dispatch: Dispatch = async () => ({
      ok: false,
      error: { code: 'BRIDGE_CLOSED', msg: 'not now' },
    });
    const result = await importUnsent(`${UNSENT_COOKIE_PREFIX}1-0=${value}`, ['s'], dispatch);
    expect(result).toEqual({ handedOver: 0, clear: [] });
  });
});
