/**
 * The first `digits` of a hexadecimal digest (a row's natural key, a trade's id), as a string of their
 * own. In V8 a slice of 13 characters or more keeps the string it was cut from alive: a key or id cut
 * from a 64-digit SHA-256 digest took 112 bytes instead of 48, for as long as it is held (the rows and
 * trades of an import, hundreds of thousands of them). Read as a JSON string, the digits are copied;
 * hexadecimal digits need no escaping.
 */
export function digestPrefix(hexDigest: string, digits: number): string {
  return JSON.parse(`"${hexDigest.slice(0, digits)}"`) as string;
}
