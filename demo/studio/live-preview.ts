/**
 * The live widget beside the form: the package's own <chatbot-widget>, talking to this server's
 * handler, given the configuration as a page would give it (attributes, properties, the same
 * stylesheet the snippets carry). Only values the form accepted reach it, so a bad value in a
 * field never breaks it.
 */
import type { ChatbotWidget } from '../../src/browser/index.js';
import { attributeText, type StudioConfig } from './studio-config.js';
import { widgetStylesheet } from './snippets.js';
import type { WidgetField } from './widget-fields.js';

/** Attributes the preview keeps its own: it talks to the handler of the server it is served by. */
const PREVIEW_OWN = new Set(['endpoint']);

export class LivePreview {
  readonly widget: ChatbotWidget;
  readonly #fields: readonly WidgetField[];
  readonly #sheet = new CSSStyleSheet();

  constructor(widget: ChatbotWidget, fields: readonly WidgetField[]) {
    this.widget = widget;
    this.#fields = fields;
    // A constructed stylesheet: allowed under the page's strict CSP, unlike a <style> or a style attribute.
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, this.#sheet];
  }

  show(config: StudioConfig): void {
    for (const field of this.#fields) {
      if (field.attribute) {
        if (PREVIEW_OWN.has(field.attribute)) continue;
        const value = config.attributes[field.attribute];
        if (value === undefined || value === false) this.widget.removeAttribute(field.attribute);
        else this.widget.setAttribute(field.attribute, value === true ? '' : attributeText(value));
      } else {
        const value = config.properties[field.name];
        let fallback: unknown = undefined;
        try {
          fallback = JSON.parse(field.default);
        } catch {
          // A default that is not JSON (none in the manifest today): leave the property unset.
        }
        (this.widget as unknown as Record<string, unknown>)[field.name] = value ?? fallback;
      }
    }
    this.#sheet.replaceSync(widgetStylesheet(config, `#${this.widget.id}`));
  }
}
