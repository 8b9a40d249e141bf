/**
 * The `suggestions` attribute: a JSON array of strings (`suggestions='["Pricing?", "Talk to a
 * person"]'`). Anything else (not JSON, not an array, an entry that is not a string) offers no
 * prompts and says why once on the console, naming the attribute, rather than showing half a
 * list or failing the element. Part of the first load (the element reads its attributes), so
 * kept small; the property is never reflected, so there is no way back to an attribute.
 */
export function suggestionsFromAttribute(value: string | null): string[] {
  if (value === null) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string')) return parsed;
  } catch {
    // reported below
  }
  console.warn(`<chatbot-widget>: suggestions must be a JSON array of strings, like '["Pricing?"]'; ignored.`);
  return [];
}
