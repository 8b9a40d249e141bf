/**
 * Builds a query string once, so the same text goes into the URL and into the signature
 *. Values are percent-encoded with `encodeURIComponent` (space as `%20`),
 * undefined and null are left out, order is the order given.
 */
export function buildQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
