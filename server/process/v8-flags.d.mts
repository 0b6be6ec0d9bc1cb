// Types of v8-flags.mjs (plain JavaScript: the launcher and the realm's loader run it before any
// transpiler or bundle loads).
export const REALM_NODE_FLAGS: readonly string[];
export const REALM_FLAG_DEFAULTS: readonly string[];
