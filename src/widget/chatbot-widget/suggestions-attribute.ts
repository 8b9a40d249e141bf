/**
 * The `suggestions` attribute: a JSON array of strings (`suggestions='["Pricing?", "Talk to a
 * person"]'`). Anything else (not JSON, not an array, an entry that is not a string) offers no
 * prompts and says why once on the console, naming the attribute, rather than showing half a
 * list or failing the element.
 */
import type { ComplexAttributeConverter } from 'lit';

export const suggestionsConverter: ComplexAttributeConverter<string[]> = {
  fromAttribute(value: string | null): string[] {
    if (value === null) return [];
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string')) return parsed;
    } catch {
      // reported below
    }
    console.warn(
      `<chatbot-widget>: the suggestions attribute must be a JSON array of strings, like '["Pricing?", "Opening hours?"]'; ignored.`,
    );
    return [];
  },
  toAttribute(value: string[]): string {
    return JSON.stringify(value);
  },
};
