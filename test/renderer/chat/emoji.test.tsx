// Emoji: codes in the API's form (no FE0F, as the server stores them), glyphs shown emoji-style,
// and the picker's search over emoji names.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { EmojiPicker } from '../../../renderer/features/emoji/EmojiPicker';
import { loadEmoji, searchEmoji } from '../../../renderer/features/emoji/emoji-data';
import { emojiGlyph, normalizeEmojiCode } from '../../../shared/emoji/code';

afterEach(cleanup);

const points = (s: string) => [...s].map((c) => c.codePointAt(0)!.toString(16)).join('-');

describe('emoji codes', () => {
  it('drop FE0F and case, as the server does', () => {
    expect(normalizeEmojiCode('2764-FE0F')).toBe('2764');
    expect(normalizeEmojiCode('1F3F3-FE0F-200D-1F308')).toBe('1f3f3-200d-1f308');
    expect(normalizeEmojiCode('1f44d')).toBe('1f44d');
  });

  it('show text-default symbols emoji-style, and leave the rest as they are', () => {
    expect(points(emojiGlyph('2764'))).toBe('2764-fe0f');
    expect(points(emojiGlyph('2764-fe0f'))).toBe('2764-fe0f');
    expect(points(emojiGlyph('0023-20e3'))).toBe('23-fe0f-20e3');
    expect(points(emojiGlyph('1f3f3-200d-1f308'))).toBe('1f3f3-fe0f-200d-1f308');
    expect(points(emojiGlyph('1f44d'))).toBe('1f44d');
    expect(points(emojiGlyph('261d-1f3fb'))).toBe('261d-1f3fb'); // a skin tone needs none
    expect(emojiGlyph('not-hex')).toBe(':not-hex:');
  });

  it('the table carries API codes, so a picked emoji equals a stored reaction', async () => {
    const all = await loadEmoji();
    expect(all.find((e) => e.name === 'heart')?.code).toBe('2764');
    expect(all.some((e) => e.code.includes('fe0f'))).toBe(false);
  });
});

describe('emoji picker', () => {
  it('searches over every name of an emoji, names starting with the text first', async () => {
    const all = await loadEmoji();
    const names = (q: string) => searchEmoji(all, q).map((e) => e.name);
    // The public server's names: "thumbs_up" and "like" are aliases of "+1".
    expect(names('thumbs_up')[0]).toBe('+1');
    expect(names('like')[0]).toBe('+1');
    expect(names(':heart')[0]).toBe('heart');
    const eyes = names('eyes');
    expect(eyes).toContain('heart_eyes'); // contains, after those starting with "eyes"
    expect(eyes.indexOf('eyes')).toBeLessThan(eyes.indexOf('heart_eyes'));
    expect(names('zzzz-no-such-emoji')).toEqual([]);
  });

  it('picks by click or with Enter for the first result', async () => {
    const onPick = vi.fn();
    render(
      <EmojiPicker
        accountId="acct-1"
        open
        onOpenChange={() => undefined}
        trigger={<button type="button">Add reaction</button>}
        onPick={onPick}
      />,
    );
    const picker = screen.getByRole('dialog', { name: 'Emoji picker' });
    const search = within(picker).getByRole('searchbox', { name: 'Search emoji' });
    fireEvent.change(search, { target: { value: 'tada' } });
    const button = await within(picker).findByRole('button', { name: 'tada' });
    // A sprite cell, its name kept as hidden text.
    const picture = button.querySelector('span.emoji')!;
    expect(picture.className).toBe('emoji emoji-1f389 emoji-picture');
    expect(picture.textContent).toBe(':tada:');
    fireEvent.click(button);
    expect(onPick).toHaveBeenLastCalledWith(
      expect.objectContaining({ name: 'tada', code: '1f389' }),
    );
    fireEvent.change(search, { target: { value: 'heart' } });
    await within(picker).findByRole('button', { name: 'heart' });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onPick).toHaveBeenLastCalledWith(
      expect.objectContaining({ name: 'heart', code: '2764' }),
    );
  });
  // Esc, a click elsewhere and the focus's way back are the popover's: test/renderer/ui/popover.test.tsx.
});
