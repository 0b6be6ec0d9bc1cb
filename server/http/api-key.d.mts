// Types of api-key.mjs (plain JavaScript: the launcher makes a first realm's owner key with it).
export function generateApiKey(): string;
export function isApiKeyForm(key: unknown): key is string;
