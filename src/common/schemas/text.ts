// Text the database can store: PostgreSQL's text and jsonb cannot hold U+0000,
// so a NUL anywhere in a request is refused with one message before it reaches a query.

export const NUL_CHARACTER_MESSAGE =
  'Text cannot contain the NUL character (\\u0000). Remove it and try again.';

export function hasNulCharacter(text: string): boolean {
  return text.includes('\0');
}

/**
 * Whether any string in a parsed value, key or value, holds a NUL: a request's query, params or JSON body,
 * and JSON text read out of a field (a pick's legs) or fetched (a results feed), where `\u0000` is six plain
 * characters until it is parsed. Iterative, so a deeply nested value cannot overflow the stack; each string is
 * looked at once. `skip` leaves out objects that are not text (the server's raw bodies).
 */
export function containsNulCharacter(value: unknown, skip?: (object: object) => boolean): boolean {
  if (typeof value === 'string') return hasNulCharacter(value);
  if (value === null || typeof value !== 'object') return false;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (Array.isArray(current)) {
      for (const item of current) {
        if (typeof item === 'string') {
          if (hasNulCharacter(item)) return true;
        } else if (item !== null && typeof item === 'object') pending.push(item as object);
      }
      continue;
    }
    if (skip?.(current)) continue;
    for (const key in current) {
      if (hasNulCharacter(key)) return true;
      const item = (current as Record<string, unknown>)[key];
      if (typeof item === 'string') {
        if (hasNulCharacter(item)) return true;
      } else if (item !== null && typeof item === 'object') pending.push(item);
    }
  }
  return false;
}
