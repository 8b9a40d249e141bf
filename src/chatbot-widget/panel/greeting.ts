/**
 * What an empty conversation shows: the host's `greeting`, as the bot's first words (never sent,
 * never stored), and its `suggestions`, prompts the visitor can send with one press. Both go as
 * soon as the conversation has a message. Texts are the host's, so they are shown as text: a
 * value that is not a string counts as empty (see inertText).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { inertText } from '../../ui/inert-text.js';
import type { WidgetStrings } from '../../ui/strings.js';

/**
 * The greeting as a bot bubble, or nothing without one. It and each suggestion take their
 * direction from their own text (`dir="auto"`), as message bubbles do: a site's English greeting in
 * an Arabic panel keeps its question mark at its end.
 */
export function renderGreeting(greeting: unknown, t: WidgetStrings): TemplateResult | typeof nothing {
  const text = inertText(greeting).trim();
  if (!text) return nothing;
  return html`<div part="greeting" class="greeting">
    <div class="bubble"><span class="sr-only">${t.bot}:</span> <span class="plain" dir="auto">${text}</span></div>
  </div>`;
}

/** The prompts that are text and not blank, in order, each once. */
export function usableSuggestions(suggestions: unknown): string[] {
  if (!Array.isArray(suggestions)) return [];
  const texts = suggestions.map((s) => inertText(s).trim()).filter(Boolean);
  return [...new Set(texts)];
}

/**
 * The suggested prompts as a labelled group of buttons; `disabled` while no send is possible
 * (the day's quota is spent). `onChoose` gets the chosen prompt.
 */
export function renderSuggestions(
  suggestions: unknown,
  t: WidgetStrings,
  disabled: boolean,
  onChoose: (text: string) => void,
): TemplateResult | typeof nothing {
  const prompts = usableSuggestions(suggestions);
  if (!prompts.length) return nothing;
  return html`<div class="suggestions" role="group" aria-label=${t.suggestionsLabel}>
    ${prompts.map((text) => html`<button part="suggestion" type="button" dir="auto" ?disabled=${disabled} @click=${() => onChoose(text)}>${text}</button>`)}
  </div>`;
}
