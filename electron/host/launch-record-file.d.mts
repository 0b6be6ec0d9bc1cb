// Types of launch-record-file.mjs (plain JavaScript: the launcher reads the record before any
// transpiler loads).
import type { LaunchRecord } from './launch-record';

export const LAUNCH_RECORD_FILE: string;

export function readLaunchRecord(dataDir: string): LaunchRecord | null;

export function newSecret(): string;
