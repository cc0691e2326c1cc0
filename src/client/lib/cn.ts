import { clsx, type ClassValue } from 'clsx';

/** Joins class names; variants are written so that callers only add classes, never override them. */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
