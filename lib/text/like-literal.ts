// A user's search text inside a (I)LIKE pattern. Prisma's `contains` and a raw ILIKE both hand the
// pattern to PostgreSQL as it is, so without this `%` and `_` match anything (a one-key query that
// lists every row) and a backslash escapes the next character.

/** The text with LIKE's metacharacters escaped, for Prisma's `contains` or between `%…%`. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}
