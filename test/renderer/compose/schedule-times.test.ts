// @vitest-environment node
// The schedule presets and the datetime-local conversions of compose's Schedule control.
import { describe, expect, it } from 'vitest';
import {
  fromDatetimeLocal,
  schedulePresets,
  toDatetimeLocal,
} from '../../../renderer/features/compose/schedule-times';

const local = (s: number) => new Date(s * 1000);

describe('schedule presets', () => {
  it('offers tomorrow at 9 am and the coming Monday at 9 am', () => {
    // Wednesday 2026-11-25, 15:40 local time.
    const [tomorrow, monday] = schedulePresets(new Date(2026, 10, 25, 15, 40));
    expect(tomorrow.label).toBe('Tomorrow at 9:00 AM');
    expect(local(tomorrow.at)).toEqual(new Date(2026, 10, 26, 9, 0));
    expect(monday.label).toBe('Monday at 9:00 AM');
    expect(local(monday.at)).toEqual(new Date(2026, 10, 30, 9, 0));
  });

  it('on a Monday, Monday means next week; on a Sunday, tomorrow is that Monday', () => {
    const [, mondayFromMonday] = schedulePresets(new Date(2026, 10, 30, 8, 0));
    expect(local(mondayFromMonday.at)).toEqual(new Date(2026, 11, 7, 9, 0));
    const [tomorrowFromSunday, mondayFromSunday] = schedulePresets(new Date(2026, 10, 29, 22, 0));
    expect(local(mondayFromSunday.at)).toEqual(local(tomorrowFromSunday.at));
  });

  it('crosses month and year ends', () => {
    const [tomorrow] = schedulePresets(new Date(2026, 11, 31, 12, 0));
    expect(local(tomorrow.at)).toEqual(new Date(2027, 0, 1, 9, 0));
  });
});

describe('datetime-local values', () => {
  it('round-trips local wall-clock minutes and reads optional seconds', () => {
    const at = Math.floor(new Date(2026, 0, 5, 7, 3).getTime() / 1000);
    expect(toDatetimeLocal(at)).toBe('2026-01-05T07:03');
    expect(fromDatetimeLocal('2026-01-05T07:03')).toBe(at);
    expect(fromDatetimeLocal('2026-01-05T07:03:09')).toBe(at + 9);
  });

  it('refuses empty and malformed values', () => {
    expect(fromDatetimeLocal('')).toBeNull();
    expect(fromDatetimeLocal('tomorrow')).toBeNull();
    expect(fromDatetimeLocal('2026-01-05 07:03')).toBeNull();
  });
});
