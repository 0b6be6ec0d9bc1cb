// The settings rule as code (renderer/features/settings/form): a choice is saved at once, typing
// only when the field is finished; a value that cannot be sent or that the server refuses stays
// shown with the reason beside it; a saved value stays until the store's event brings it; and
// leaving Settings saves what is pending and asks only about what could not be saved.
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { useSettingsForm } from '../../../renderer/features/settings/form/use-settings-form';
import { FieldStatus, textFieldProps } from '../../../renderer/features/settings/form/FieldStatus';
import {
  discardUnsavedSettings,
  hasUnsavedSettings,
  leaveQuestion,
  leaveSettings,
} from '../../../renderer/features/settings/form/unsaved';

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
  it('saves a choice at once and shows it until the store has it', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const form = setup(send);
    await act(async () => form.result.current.set('limit', null));
    expect(send).toHaveBeenCalledWith({ limit: null });
    // The response came, the event not yet: the new value stays on screen, nothing is dirty.
    expect(form.result.current.values.limit).toBeNull();
    expect(form.result.current.dirty).toBe(false);
    expect(form.result.current.field('limit').status).toBe('saved');
    form.rerender({ saved: { name: 'Crew', limit: null } });
    expect(form.result.current.values.limit).toBeNull();
    // Once in the store, a later change from elsewhere shows.
    form.rerender({ saved: { name: 'Crew', limit: 3600 } });
    expect(form.result.current.values.limit).toBe(3600);
  });

  it('shows the value as the server stored it once its event comes', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const form = setup(send);
    act(() => form.result.current.edit('name', ' Rowers '));
    await act(() => form.result.current.commit());
    expect(form.result.current.values.name).toBe(' Rowers ');
    form.rerender({ saved: { name: 'Rowers', limit: 600 } });
    expect(form.result.current.values.name).toBe('Rowers');
    expect(form.result.current.dirty).toBe(false);
  });

  it('sends typing only when committed, and nothing that equals the saved value', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const form = setup(send);
    act(() => form.result.current.edit('name', 'Cr'));
    act(() => form.result.current.edit('name', 'Crew'));
    await act(() => form.result.current.commit());
    expect(send).not.toHaveBeenCalled();
    act(() => form.result.current.edit('name', 'Rowers'));
    expect(form.result.current.dirty).toBe(true);
    expect(send).not.toHaveBeenCalled();
    await act(() => form.result.current.commit());
    expect(send).toHaveBeenCalledExactlyOnceWith({ name: 'Rowers' });
    expect(form.result.current.dirty).toBe(false);
  });

  it('keeps a value that cannot be sent or that the server refuses, with the reason', async () => {
    const send = vi.fn(() => Promise.reject(new Error('Invalid characters in name!')));
    const form = setup(send);
    act(() => form.result.current.edit('name', '  '));
    await act(() => form.result.current.commit());
    expect(send).not.toHaveBeenCalled();
    expect(form.result.current.field('name').problem).toBe('Name needed');
    act(() => form.result.current.edit('name', 'Row\ters'));
    let clean = true;
    await act(async () => {
      clean = await form.result.current.commit();
    });
    expect(clean).toBe(false);
    expect(form.result.current.field('name')).toEqual({
      status: 'idle',
      problem: 'Invalid characters in name!',
      refused: true,
    });
    expect(form.result.current.values.name).toBe('Row\ters');
    expect(form.result.current.dirty).toBe(true);
    act(() => form.result.current.revert('name'));
    expect(form.result.current.values.name).toBe('Crew');
    expect(form.result.current.field('name').problem).toBeUndefined();
  });

  it('sends fields that belong together all at once or not at all', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    const form = renderHook(() =>
      useSettingsForm(
        { forever: true, days: '' },
        {
          together: true,
          validate: (v) => ({ days: v.forever || Number(v.days) > 0 ? undefined : 'Days?' }),
          send,
        },
      ),
    );
    await act(async () => form.result.current.set('forever', false));
    expect(send).not.toHaveBeenCalled();
    // The untouched partner says why nothing was sent.
    expect(form.result.current.field('days').problem).toBe('Days?');
    act(() => form.result.current.edit('days', '30'));
    await act(() => form.result.current.commit());
    expect(send).toHaveBeenCalledExactlyOnceWith({ forever: false, days: '30' });
  });
});

function NameField({ send }: { send: (c: { name?: string }) => Promise<unknown> }) {
  const form = useSettingsForm({ name: 'Crew' }, { send });
  return (
    <label>
      Name
      <input {...textFieldProps(form, 'name')} />
      <FieldStatus form={form} name="name" />
    </label>
  );
}

describe('a settings text field and leaving Settings', () => {
  it('saves on Enter and says so beside the field; Esc goes back to the saved value', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    render(<NameField send={send} />);
    const input = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'Oops' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.value).toBe('Crew');
    fireEvent.change(input, { target: { value: 'Rowers' } });
    await act(async () => fireEvent.keyDown(input, { key: 'Enter' }));
    expect(send).toHaveBeenCalledExactlyOnceWith({ name: 'Rowers' });
    expect(screen.getByRole('status').textContent).toContain('Saved');
  });

  it('saves a typed value before leaving, without asking', async () => {
    const send = vi.fn(() => Promise.resolve({}));
    render(<NameField send={send} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), {
      target: { value: 'Rowers' },
    });
    expect(hasUnsavedSettings()).toBe(true);
    const proceed = vi.fn();
    await act(async () => leaveSettings(proceed));
    expect(send).toHaveBeenCalledWith({ name: 'Rowers' });
    expect(proceed).toHaveBeenCalled();
    expect(leaveQuestion.getState().proceed).toBeNull();
  });

  it('waits for a save on its way before leaving, and does not ask', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const send = vi.fn(() => new Promise((resolve) => (answer = resolve)));
    render(<NameField send={send} />);
    const input = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: 'Rowers' } });
    fireEvent.blur(input);
    expect(send).toHaveBeenCalledTimes(1);
    const proceed = vi.fn();
    leaveSettings(proceed);
    await act(async () => answer({}));
    await vi.waitFor(() => expect(proceed).toHaveBeenCalled());
    expect(send).toHaveBeenCalledTimes(1);
    expect(leaveQuestion.getState().proceed).toBeNull();
  });

  it('asks before leaving when the server refused a value, and leaves only if told to', async () => {
    const send = vi.fn(() => Promise.reject(new Error('Invalid characters in name!')));
    render(<NameField send={send} />);
    const input = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'Row\ters' } });
    await act(async () => fireEvent.blur(input));
    expect(screen.getByRole('alert').textContent).toBe('Invalid characters in name!');
    expect(input.value).toBe('Row\ters');
    const proceed = vi.fn();
    await act(async () => leaveSettings(proceed));
    expect(proceed).not.toHaveBeenCalled();
    expect(leaveQuestion.getState().proceed).toBe(proceed);
    leaveQuestion.setState({ proceed: null });
  });

  it('sends nothing more once the person chose to discard, even as the form goes', async () => {
    const send = vi.fn(() => Promise.reject(new Error('Invalid characters in name!')));
    const view = render(<NameField send={send} />);
    const input = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: 'Row\ters' } });
    await act(async () => fireEvent.blur(input));
    const asked = send.mock.calls.length;
    // "Discard changes", then the section goes (UnsavedChangesDialog does both).
    discardUnsavedSettings();
    await act(async () => view.unmount());
    expect(send).toHaveBeenCalledTimes(asked);
  });
});
