import { useState } from 'react';

/**
 * The last non-null value. A dialog closes with an animation after its selection is cleared (spec 4), and
 * must keep showing what it was about until it is gone.
 */
export function useRetained<T>(value: T | null): T | null {
  const [retained, setRetained] = useState(value);
  if (value !== null && value !== retained) setRetained(value);
  return value ?? retained;
}
