// @vitest-environment node
// Which views mark what they show as read: the public web app's rule (shared/narrow/mark-read.ts).
import { describe, expect, it } from 'vitest';
import { narrowCanMarkRead, parseSearchQuery } from '../../shared/narrow';

const MARKING = [
  '',
  'channel:3',
  'stream:3 subject:lunch',
  'channel:3 topic:lunch with:12',
  'pm-with:7',
  'is:private',
  '-is:dm',
  'is:resolved',
  'in:home',
  'in:all',
  '-is:muted',
];
const NOT_MARKING = [
  'lighthouse',
  'channel:3 lighthouse',
  'channel:3 topic:lunch lighthouse',
  'is:starred',
  'is:mentioned',
  'is:unread',
  'sender:me',
  'topic:lunch',
  '-channel:3',
  'has:link',
];

describe('narrowCanMarkRead', () => {
  it.each(MARKING)('marks in "%s", a view of whole conversations', (text) => {
    expect(narrowCanMarkRead(parseSearchQuery(text))).toBe(true);
  });
  it.each(NOT_MARKING)('never marks in "%s", a search or personal view', (text) => {
    expect(narrowCanMarkRead(parseSearchQuery(text))).toBe(false);
  });
  it('takes narrows in the API encoding, with ids', () => {
    expect(narrowCanMarkRead([{ operator: 'dm', operand: [7, 9] }])).toBe(true);
    expect(narrowCanMarkRead([{ operator: 'search', operand: 'x' }])).toBe(false);
  });
});
