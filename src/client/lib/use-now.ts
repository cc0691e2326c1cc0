import { useEffect, useState } from 'react';

/**
 * The time now, read again every `intervalMs`: for text such as "2 min ago" that must age on screen. Only
 * the clock ticks; no data is fetched (spec 7: no polling).
 */
export function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
