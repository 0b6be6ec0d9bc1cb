// Types of launch-start.mjs (plain JavaScript: `npm start` runs it before any transpiler loads).
export function runStart(root: string): Promise<void>;
