/**
 * `::part()` recipes a site owner can switch on in the studio: small, tried rules on the
 * element's documented parts. Each is CSS for a selector of the owner's choice (their page's
 * `chatbot-widget`, or a framework's scoped form of it). Pure: no DOM.
 */
export interface PartRecipe {
  id: string;
  label: string;
  /** The rules, for `host` the selector of the element. */
  css(host: string): string;
}

export const PART_RECIPES: readonly PartRecipe[] = [
  {
    id: 'square-launcher',
    label: 'Square launcher',
    css: (host) => `${host}::part(launcher) {\n  border-radius: 10px;\n}`,
  },
  {
    id: 'larger-input',
    label: 'Larger message field',
    css: (host) => `${host}::part(input) {\n  font-size: 1.1em;\n  min-block-size: 3.5em;\n}`,
  },
  {
    id: 'brand-header',
    label: 'Header in the accent colour',
    css: (host) => `${host}::part(header) {\n  background: var(--chatbot-accent, #1d4ed8);\n  color: var(--chatbot-on-accent, #ffffff);\n}`,
  },
];

export const recipeById = (id: string) => PART_RECIPES.find((recipe) => recipe.id === id);
