import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '#common/constants.js';

export type ToastVariant = 'default' | 'success' | 'destructive';

export type ToastOptions = {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** A <ToastAction> element, for a toast the user can act on. */
  action?: ReactElement;
};

export type ToastEntry = ToastOptions & { id: string; open: boolean };

// A module-level store: toast() is called from mutation callbacks and effects, far from any component.
let entries: ToastEntry[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setEntries(next: ToastEntry[]): void {
  entries = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  // spec 9: a dismissed toast leaves the store only after TOAST_REMOVE_DELAY_MS; Radix has unmounted it long before.
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    setEntries(entries.filter((entry) => entry.id !== id));
  }, TOAST_REMOVE_DELAY_MS);
  removalTimers.set(id, timer);
}

/** Closes one toast, or all of them when no id is given. */
export function dismissToast(id?: string): void {
  setEntries(
    entries.map((entry) => (id === undefined || entry.id === id ? { ...entry, open: false } : entry)),
  );
  for (const entry of entries) if (!entry.open) scheduleRemoval(entry.id);
}

export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  const id = String(++nextId);
  // spec 9: TOAST_LIMIT (1) visible at a time, so the newest replaces whatever was showing.
  const next = [{ ...options, id, open: true }, ...entries];
  for (const dropped of next.slice(TOAST_LIMIT)) {
    clearTimeout(removalTimers.get(dropped.id));
    removalTimers.delete(dropped.id);
  }
  setEntries(next.slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastEntry[] {
  return entries;
}

export function useToast() {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts, toast, dismiss: dismissToast };
}
