// The proxy main's own connections go through. Every request to a chat server is made by main with
// Node's fetch (the page never opens a connection), so the proxy is set on Node's global dispatcher,
// not on Chromium's session; it applies in browser mode too. Uploads larger than the tus threshold
// use Node's http module and do not go through it (docs/desktop-shell.md).
import { EnvHttpProxyAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { ProxyPreference } from '../../shared/ipc/shell';

type Dispatcher = ReturnType<typeof getGlobalDispatcher>;

const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** The dispatcher a preference asks for; null leaves Node's own (which ignores proxy variables). */
export function proxyDispatcher(
  preference: ProxyPreference,
  env: Record<string, string | undefined> = process.env,
): Dispatcher | null {
  switch (preference.mode) {
    case 'manual':
      if (!preference.url) return null;
      return new EnvHttpProxyAgent({
        httpProxy: preference.url,
        httpsProxy: preference.url,
        noProxy: preference.bypass,
      });
    case 'system':
      return PROXY_ENV.some((name) => env[name]) ? new EnvHttpProxyAgent() : null;
    case 'direct':
      return null;
  }
}

let installed: Dispatcher | null = null;
let original: Dispatcher | null = null;

/** Routes main's fetches as the preference says, closing the dispatcher it replaces. */
export function applyProxy(preference: ProxyPreference): void {
  original ??= getGlobalDispatcher();
  const next = proxyDispatcher(preference) ?? original;
  if (next === installed) return;
  setGlobalDispatcher(next);
  const previous = installed;
  installed = next;
  if (previous && previous !== original) void previous.close().catch(() => undefined);
}
