// Text the database can store (issue 11 'Bad input'): PostgreSQL's text and jsonb cannot hold U+0000,
// so a NUL anywhere in a request is refused with one message before it reaches a query.

export const NUL_CHARACTER_MESSAGE =
  'Text cannot contain the NUL character (\\u0000). Remove it and try again.';

export function hasNulCharacter(text: string): boolean {
  return text.includes('\0');
}
