/**
 * Whether the text holds a C0 or C1 control character or DEL: none belongs in a URL, a header or a
 * stored name (CR/LF split headers, NUL ends strings in C code and PostgreSQL refuses it in text).
 */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
