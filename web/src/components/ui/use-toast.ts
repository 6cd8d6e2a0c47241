/**
 * The primary toast system (spec sections 3, 4 and 9), with shadcn/ui's semantics: a toast is
 * added, updated, dismissed (open false) and removed 1,000,000 ms after dismissal; only 1 is
 * shown, so a new toast replaces the earlier one. Radix Toast renders them (toaster.tsx).
 *
 * The state machine is a pure reducer plus a small store, testable without a DOM.
 */
import { PRIMARY_TOAST } from '@reshelf/contracts';
import type { ReactElement, ReactNode } from 'react';
import { useSyncExternalStore } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastData {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  /** A <ToastAction altText="…"> element. */
  action?: ReactElement;
  open: boolean;
  variant: ToastVariant;
  /** Milliseconds before it closes by itself; the provider's 5000 ms by default. */
  duration?: number;
  onOpenChange?: (open: boolean) => void;
}

export type ToastInput = Omit<ToastData, 'id' | 'open' | 'variant' | 'onOpenChange'> & {
  variant?: ToastVariant;
};

export interface ToastState {
  toasts: ToastData[];
}

export type ToastAction =
  | { type: 'ADD_TOAST'; toast: ToastData }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToastData> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

/** Pure transitions. Without a toastId, DISMISS and REMOVE apply to every toast. */
export function toastReducer(
  state: ToastState,
  action: ToastAction,
  limit: number = PRIMARY_TOAST.limit,
): ToastState {
  switch (action.type) {
    case 'ADD_TOAST':
      return { toasts: [action.toast, ...state.toasts].slice(0, limit) };
    case 'UPDATE_TOAST':
      return {
        toasts: state.toasts.map((toast) =>
          toast.id === action.toast.id ? { ...toast, ...action.toast } : toast,
        ),
      };
    case 'DISMISS_TOAST':
      return {
        toasts: state.toasts.map((toast) =>
          action.toastId === undefined || toast.id === action.toastId ? { ...toast, open: false } : toast,
        ),
      };
    case 'REMOVE_TOAST':
      return {
        toasts:
          action.toastId === undefined ? [] : state.toasts.filter((toast) => toast.id !== action.toastId),
      };
  }
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (changes: Partial<ToastInput>) => void;
}

export interface ToastStore {
  getState(): ToastState;
  subscribe(listener: () => void): () => void;
  toast(input: ToastInput): ToastHandle;
  dismiss(toastId?: string): void;
}

export interface ToastStoreOptions {
  limit?: number;
  removeDelayMs?: number;
}

export function createToastStore({
  limit = PRIMARY_TOAST.limit,
  removeDelayMs = PRIMARY_TOAST.removeDelayMs,
}: ToastStoreOptions = {}): ToastStore {
  let state: ToastState = { toasts: [] };
  let count = 0;
  const listeners = new Set<() => void>();
  const removals = new Map<string, ReturnType<typeof setTimeout>>();

  function dispatch(action: ToastAction) {
    const before = state.toasts;
    state = toastReducer(state, action, limit);
    // A toast pushed out by a newer one, or removed, needs no pending removal any more.
    for (const toast of before) {
      if (!state.toasts.some((kept) => kept.id === toast.id)) cancelRemoval(toast.id);
    }
    for (const listener of listeners) listener();
  }

  function cancelRemoval(id: string) {
    const timer = removals.get(id);
    if (timer === undefined) return;
    clearTimeout(timer);
    removals.delete(id);
  }

  function scheduleRemoval(id: string) {
    if (removals.has(id)) return;
    removals.set(
      id,
      setTimeout(() => {
        removals.delete(id);
        dispatch({ type: 'REMOVE_TOAST', toastId: id });
      }, removeDelayMs),
    );
  }

  function dismiss(toastId?: string) {
    for (const toast of state.toasts) {
      if (toastId === undefined || toast.id === toastId) scheduleRemoval(toast.id);
    }
    dispatch({ type: 'DISMISS_TOAST', toastId });
  }

  function toast({ variant = 'default', ...input }: ToastInput): ToastHandle {
    count = (count + 1) % Number.MAX_SAFE_INTEGER;
    const id = String(count);
    dispatch({
      type: 'ADD_TOAST',
      toast: {
        ...input,
        id,
        variant,
        open: true,
        onOpenChange: (open) => {
          if (!open) dismiss(id);
        },
      },
    });
    return {
      id,
      dismiss: () => dismiss(id),
      update: (changes) => dispatch({ type: 'UPDATE_TOAST', toast: { ...changes, id } }),
    };
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    toast,
    dismiss,
  };
}

/** The app's primary toasts. */
export const toastStore = createToastStore();

/** Shows a primary toast, replacing the one on screen: toast({ title, description, variant, action }). */
export function toast(input: ToastInput): ToastHandle {
  return toastStore.toast(input);
}

/** Closes one toast, or every toast without an id. */
export function dismissToast(toastId?: string): void {
  toastStore.dismiss(toastId);
}

export function useToast() {
  const state = useSyncExternalStore(toastStore.subscribe, toastStore.getState, toastStore.getState);
  return { ...state, toast, dismiss: dismissToast };
}
