/**
 * The person's language and the asker's, as MCP's draft SEP-2792 carries them
 * (it may change): each request says which language the person reads
 * (`_meta["io.modelcontextprotocol/acceptLanguage"]`, the Accept-Language
 * grammar), and a server may say which language its text is in
 * (`_meta["io.modelcontextprotocol/contentLanguage"]`), which the form puts in
 * `lang` so a screen reader pronounces the question in that language.
 */
export const ACCEPT_LANGUAGE_META = 'io.modelcontextprotocol/acceptLanguage';
export const CONTENT_LANGUAGE_META = 'io.modelcontextprotocol/contentLanguage';

/** A BCP 47 language tag as `lang` takes it: letters and digits in subtags of at most 8. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,5}$/;

/**
 * VS Code's display language ("de", "zh-cn", "pt-br") as an Accept-Language value
 * with the tag's usual case ("de", "zh-CN", "pt-BR"); undefined when it is not a tag.
 */
export function acceptLanguageFor(displayLanguage: string | undefined): string | undefined {
  if (!displayLanguage || !LANGUAGE_TAG.test(displayLanguage)) return undefined;
  const [language, ...rest] = displayLanguage.split('-');
  const subtags = rest.map((s) => (s.length === 2 ? s.toUpperCase() : s.length === 4 ? s[0]!.toUpperCase() + s.slice(1).toLowerCase() : s));
  return [language!.toLowerCase(), ...subtags].join('-');
}

/** The language a server says its text is in, from a `_meta` object; undefined unless it is a usable tag. */
export function contentLanguageIn(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const value = (meta as Record<string, unknown>)[CONTENT_LANGUAGE_META];
  // Content-Language may list several: the first is the text's.
  const first = typeof value === 'string' ? value.split(',')[0]!.trim() : undefined;
  return first && LANGUAGE_TAG.test(first) ? first : undefined;
}
