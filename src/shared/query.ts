/**
 * Builds a query string once, so the same text goes into the URL and into the signature.
 * Values are percent-encoded with `encodeURIComponent` (space as `%20`), and `'` as `%27` too:
 * URL parsing encodes that one in http(s) queries, so a value with it (`o'brien@example.com`)
 * would otherwise be signed as written and sent encoded. Undefined and null are left out, order
 * is the order given.
 */
export function buildQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeQueryText(name)}=${encodeQueryText(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const encodeQueryText = (text: string) => encodeURIComponent(text).replaceAll("'", '%27');
