// The /media token rotates at every bridge handshake; the one before stays good for a minute (images
// already requested), then never again.
import { describe, expect, it } from 'vitest';
import { MediaCredential } from '../../electron/host/media-credential';

describe('MediaCredential', () => {
  it('accepts only issued tokens, the previous one for a grace minute after rotation', () => {
    let now = 1_000_000;
    const media = new MediaCredential(() => now);
    const first = media.rotate();
    expect(media.accepts(first)).toBe(true);
    expect(media.accepts(null)).toBe(false);
    expect(media.accepts('guess')).toBe(false);
    const second = media.rotate();
    expect(second).not.toBe(first);
    expect(media.accepts(second)).toBe(true);
    expect(media.accepts(first)).toBe(true);
    now += 61_000;
    expect(media.accepts(first)).toBe(false);
    expect(media.accepts(second)).toBe(true);
    media.rotate();
    media.rotate();
    expect(media.accepts(second)).toBe(false);
  });
});
