// Media types of uploads: first bytes first, the extension otherwise, a zip container keeping its
// extension's more specific type.
import { describe, expect, it } from 'vitest';
import { detectMediaType, mediaTypeForName, sniffMediaType } from '../../shared/media-types';

const bytes = (...parts: Array<string | number[]>) =>
  Uint8Array.from(
    parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );

describe('media types', () => {
  it('sniffs common formats from their first bytes', () => {
    expect(sniffMediaType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(sniffMediaType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMediaType(bytes('GIF89a'))).toBe('image/gif');
    expect(sniffMediaType(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffMediaType(bytes('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMediaType(bytes([0, 0, 0, 0x18], 'ftypisom'))).toBe('video/mp4');
    expect(sniffMediaType(bytes([0, 0, 0, 0x18], 'ftypqt  '))).toBe('video/quicktime');
    expect(sniffMediaType(bytes('hello world'))).toBeNull();
  });

  it('prefers the bytes, falls back to the name, keeps zip-based office types', () => {
    expect(detectMediaType('photo.txt', bytes([0xff, 0xd8, 0xff]))).toBe('image/jpeg');
    expect(detectMediaType('notes.txt', bytes('plain words'))).toBe('text/plain');
    expect(detectMediaType('report.docx', bytes('PK', [3, 4]))).toContain('wordprocessingml');
    expect(detectMediaType('archive', bytes('PK', [3, 4]))).toBe('application/zip');
    expect(detectMediaType('clip.ogv', bytes('OggS'))).toBe('video/ogg');
    expect(detectMediaType('unknown', bytes('???'))).toBe('application/octet-stream');
    expect(mediaTypeForName('IMAGE.PNG')).toBe('image/png');
  });
});
