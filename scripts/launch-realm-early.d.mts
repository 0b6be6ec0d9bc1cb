// Types of launch-realm-early.mjs (plain JavaScript, run before npm start's bundle loads).
export function forkFirstRealmEarly(root: string, argv: string[]): Promise<number | null>;
