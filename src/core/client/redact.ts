/** Removes a key from text that a server or a library produced, in case it echoes the header back. */
export function redactKey(text: string, key: string | undefined): string {
  let out = text.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1<redacted>');
  if (key && key.length >= 4) out = out.split(key).join('<redacted>');
  return out;
}
