export type RangeResult =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const BYTES_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * One byte range of RFC 9110 §14 against a file of `size` bytes: `a-b`, `a-` or the suffix `-n`.
 * A bytes range that is malformed or lies outside the file is unsatisfiable (416, as nginx does);
 * several ranges at once are answered with the whole file, which the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const value = header.trim();
  if (!/^bytes=/i.test(value)) return { kind: 'full' };
  if (value.includes(',')) return { kind: 'full' };
  const match = BYTES_RANGE.exec(value.replace(/^bytes=/i, 'bytes=').replace(/\s+/g, ''));
  if (!match) return { kind: 'unsatisfiable' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || (last !== '' && Number(last) < start)) {
    return { kind: 'unsatisfiable' };
  }
  return { kind: 'partial', start, end };
}
