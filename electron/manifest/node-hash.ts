// The incremental SHA-256 that shared/ code is handed on the Node side (main process and CLI).
import { createHash } from 'node:crypto';
import type { HashFactory, IncrementalHash } from '../../shared/ogg';

export const nodeSha256: HashFactory = (): IncrementalHash => {
  const hash = createHash('sha256');
  return {
    update: (bytes) => void hash.update(bytes),
    digestHex: () => hash.digest('hex'),
  };
};
