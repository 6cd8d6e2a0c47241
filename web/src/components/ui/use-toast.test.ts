import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, type ToastData, toastReducer } from './use-toast.ts';

function data(id: string, overrides: Partial<ToastData> = {}): ToastData {
  return { id, title: `Toast ${id}`, open: true, variant: 'default', ...overrides };
}

describe('primary toast reducer', () => {
  it('keeps only 1 toast: a new one replaces the earlier one', () => {
    let state = toastReducer({ toasts: [] }, { type: 'ADD_TOAST', toast: data('1') });
    state = toastReducer(state, { type: 'ADD_TOAST', toast: data('2') });
    expect(state.toasts.map((toast) => toast.id)).toEqual(['2']);
  });

  it('updates a toast in place', () => {
    const state = toastReducer(
      { toasts: [data('1')] },
      { type: 'UPDATE_TOAST', toast: { id: '1', title: 'Saved', variant: 'destructive' } },
    );
    expect(state.toasts[0]).toMatchObject({ id: '1', title: 'Saved', variant: 'destructive', open: true });
  });

  it('dismissing sets open to false and keeps the toast', () => {
    const state = toastReducer({ toasts: [data('1')] }, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([expect.objectContaining({ id: '1', open: false })]);
  });

  it('dismisses and removes every toast when no id is given', () => {
    const many = { toasts: [data('1'), data('2')] };
    expect(toastReducer(many, { type: 'DISMISS_TOAST' }, 5).toasts.every((toast) => !toast.open)).toBe(true);
    expect(toastReducer(many, { type: 'REMOVE_TOAST' }, 5).toasts).toEqual([]);
  });

  it('removes one toast by id', () => {
    const state = toastReducer({ toasts: [data('1'), data('2')] }, { type: 'REMOVE_TOAST', toastId: '1' }, 5);
    expect(state.toasts.map((toast) => toast.id)).toEqual(['2']);
  });
});

describe('primary toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows 1 toast at a time, the newest', () => {
    const store = createToastStore();
    store.toast({ title: 'First' });
    store.toast({ title: 'Second', variant: 'destructive' });
    expect(store.getState().toasts).toEqual([
      expect.objectContaining({ title: 'Second', variant: 'destructive', open: true }),
    ]);
  });

  it('gives each toast an id, a default variant and open true', () => {
    const store = createToastStore();
    const handle = store.toast({ title: 'Hello', description: 'World' });
    expect(store.getState().toasts[0]).toMatchObject({
      id: handle.id,
      title: 'Hello',
      description: 'World',
      variant: 'default',
      open: true,
    });
    expect(store.toast({ title: 'Again' }).id).not.toBe(handle.id);
  });

  it('dismiss sets open false, then removes the toast after 1,000,000 ms', () => {
    const store = createToastStore();
    const handle = store.toast({ title: 'Saved' });
    handle.dismiss();
    expect(store.getState().toasts).toEqual([expect.objectContaining({ id: handle.id, open: false })]);
    vi.advanceTimersByTime(999_999);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toEqual([]);
  });

  it('closing from the UI (Radix onOpenChange(false)) dismisses the toast', () => {
    const store = createToastStore();
    store.toast({ title: 'Saved' });
    store.getState().toasts[0]?.onOpenChange?.(false);
    expect(store.getState().toasts[0]?.open).toBe(false);
    vi.advanceTimersByTime(1_000_000);
    expect(store.getState().toasts).toEqual([]);
  });

  it('a replaced toast leaves no removal pending, and a removal never takes the newer toast', () => {
    const store = createToastStore();
    const first = store.toast({ title: 'First' });
    first.dismiss();
    store.toast({ title: 'Second' });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000_000);
    expect(store.getState().toasts).toEqual([expect.objectContaining({ title: 'Second', open: true })]);
  });

  it('updates a shown toast through its handle', () => {
    const store = createToastStore();
    const handle = store.toast({ title: 'Uploading' });
    handle.update({ title: 'Uploaded' });
    expect(store.getState().toasts[0]).toMatchObject({ id: handle.id, title: 'Uploaded', open: true });
  });

  it('notifies subscribers on every change, until they unsubscribe', () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const handle = store.toast({ title: 'One' });
    handle.dismiss();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.toast({ title: 'Two' });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
