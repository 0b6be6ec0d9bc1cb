// The organization screens' form state (renderer/features/settings/organization/form): what
// changed, validation blocking a save, the server's refusal kept with the edits, and a saved value
// shown until the realm's event brings it into the store.
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useSettingsForm } from '../../../renderer/features/settings/organization/form/use-settings-form';

type Values = { name: string; limit: number | null };

function setup(send: (changes: Partial<Values>) => Promise<unknown>) {
  return renderHook(
    ({ saved }: { saved: Values }) =>
      useSettingsForm(saved, {
        validate: (v) => ({ name: v.name.trim() === '' ? 'Name needed' : undefined }),
        send,
      }),
    { initialProps: { saved: { name: 'Crew', limit: 600 } as Values } },
  );
}

describe('useSettingsForm', () => {
  it('sends only what changed and shows it until the store has it', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const form = setup(send);
    act(() => form.result.current.set('limit', null));
    act(() => form.result.current.set('name', 'Crew'));
    expect(form.result.current.dirty).toBe(true);
    expect(form.result.current.changes).toEqual({ limit: null });
    await act(() => form.result.current.save());
    expect(send).toHaveBeenCalledWith({ limit: null });
    // The response came, the event not yet: the new value stays on screen, nothing is dirty.
    expect(form.result.current.values.limit).toBeNull();
    expect(form.result.current.dirty).toBe(false);
    expect(form.result.current.status).toBe('saved');
    form.rerender({ saved: { name: 'Crew', limit: null } });
    expect(form.result.current.values.limit).toBeNull();
    // Once in the store, a later change from elsewhere shows.
    form.rerender({ saved: { name: 'Crew', limit: 3600 } });
    expect(form.result.current.values.limit).toBe(3600);
  });

  it('does not send while a value is refused, and keeps edits after a server refusal', async () => {
    const send = vi.fn(() => Promise.reject(new Error('Must be an organization owner')));
    const form = setup(send);
    act(() => form.result.current.set('name', '  '));
    expect(form.result.current.problems.name).toBe('Name needed');
    await act(() => form.result.current.save());
    expect(send).not.toHaveBeenCalled();
    act(() => form.result.current.set('name', 'Rowers'));
    await act(() => form.result.current.save());
    expect(form.result.current.refusal).toBe('Must be an organization owner');
    expect(form.result.current.values.name).toBe('Rowers');
    expect(form.result.current.dirty).toBe(true);
    act(() => form.result.current.discard());
    expect(form.result.current.values.name).toBe('Crew');
    expect(form.result.current.refusal).toBeNull();
  });
});
