// Fault injection for the audio check: the real node:crypto packet hash, with actions run the first
// time it is fed (the file is open and its first chunk read) and when its digest is taken (the read is
// over and the file closed, the check's last step). Tests use them to change or replace the audio file
// while it is being checked, or in the instant after.
import { nodeSha256 } from '../../../electron/manifest';
import type { HashFactory } from '../../../shared/ogg';

export function hashWithHooks(hooks: {
  onFirstPacket?: () => void;
  onDigest?: () => void;
}): HashFactory {
  let fed = false;
  return () => {
    const hash = nodeSha256();
    return {
      update(bytes) {
        if (!fed) {
          fed = true;
          hooks.onFirstPacket?.();
        }
        hash.update(bytes);
      },
      digestHex() {
        hooks.onDigest?.();
        return hash.digestHex();
      },
    };
  };
}
