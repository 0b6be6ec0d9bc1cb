// Parses a zuliprc-style file: an INI file whose [api] section has email, key and site.

export interface ZuliprcCredentials {
  email: string;
  apiKey: string;
  site: string;
}

export function parseZuliprc(text: string): ZuliprcCredentials {
  let section = '';
  const api: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1].trim().toLowerCase();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0 || section !== 'api') continue;
    api[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  const missing = ['email', 'key', 'site'].filter((name) => !api[name]);
  if (missing.length > 0) {
    throw new Error(`The file's [api] section lacks ${missing.join(', ')}`);
  }
  return { email: api.email, apiKey: api.key, site: api.site };
}
