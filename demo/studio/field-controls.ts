/**
 * One labelled form control per field of the element, built with DOM calls only (no HTML
 * strings, so whatever a link or the owner types stays text), each with its description and
 * default as a hint and a message line of its own for what is wrong with its value.
 */
import { defaultText, type StyleField, type WidgetField } from './widget-fields.js';

export interface FieldControl {
  /** The config key: attribute name, `.property`, or `--chatbot-*`. */
  key: string;
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  /** The value as text ('' for unset; 'true' / '' for a checkbox). */
  read(): string;
  write(text: string): void;
  /** Shows a problem at the field (or clears it with ''); `warning` for advice that does not block the value. */
  say(message: string, tone?: 'error' | 'warning'): void;
  root: HTMLElement;
}

let counter = 0;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Record<string, string | number | boolean> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

function control(key: string, label: string, hint: string, input: FieldControl['input'], isCheckbox = false): FieldControl {
  const id = `field-${++counter}`;
  input.id = id;
  const hintLine = element('p', { className: 'field-hint', id: `${id}-hint` }, hint);
  const message = element('p', { className: 'field-message', id: `${id}-message` });
  // Read out when it changes, without moving focus from the field being typed in.
  message.setAttribute('aria-live', 'polite');
  input.setAttribute('aria-describedby', `${id}-hint ${id}-message`);
  const labelNode = element('label', { htmlFor: id }, element('code', {}, label));
  const root = element('div', { className: isCheckbox ? 'field field-checkbox' : 'field' });
  if (isCheckbox) root.append(input, labelNode, hintLine, message);
  else root.append(labelNode, input, hintLine, message);
  root.dataset.key = key;
  return {
    key,
    input,
    root,
    read: () => (input instanceof HTMLInputElement && input.type === 'checkbox' ? (input.checked ? 'true' : '') : input.value),
    write(text) {
      if (input instanceof HTMLInputElement && input.type === 'checkbox') input.checked = text === 'true';
      else input.value = text;
    },
    say(text, tone = 'error') {
      message.textContent = text;
      message.className = text ? `field-message ${tone}` : 'field-message';
      if (tone === 'error') input.setAttribute('aria-invalid', String(Boolean(text)));
    },
  };
}

/** A control for an attribute or property of the element, from its manifest entry. */
export function widgetFieldControl(field: WidgetField): FieldControl {
  const key = field.attribute ?? `.${field.name}`;
  const shown = defaultText(field);
  const hint = `${field.description.replace(/\s+/g, ' ')} Type: ${field.type}.${shown ? ` Default: ${shown}.` : ''}`;
  const label = field.attribute ?? `${field.name} (property)`;
  switch (field.kind) {
    case 'boolean':
      return control(key, label, hint, element('input', { type: 'checkbox' }), true);
    case 'choice': {
      const select = element('select', {}, element('option', { value: '' }, `(default${shown ? `: ${shown}` : ''})`));
      for (const option of field.options) select.append(element('option', { value: option }, option));
      return control(key, label, hint, select);
    }
    case 'list':
    case 'json':
      return control(key, label, hint, element('textarea', { rows: 3, spellcheck: false }));
    case 'number':
      return control(key, label, hint, element('input', { type: 'text', inputMode: 'numeric', autocomplete: 'off' }));
    case 'url':
    case 'text':
      return control(key, label, hint, element('input', { type: 'text', autocomplete: 'off', spellcheck: false }));
  }
}

/** A control for a `--chatbot-*` custom property; colours get a swatch of what they show. */
export function styleFieldControl(field: StyleField): FieldControl {
  const input = element('input', { type: 'text', autocomplete: 'off', spellcheck: false, placeholder: field.default });
  const built = control(field.name, field.name, `${field.description} Default: ${field.default}.`, input);
  if (field.kind === 'colour') {
    const swatch = element('span', { className: 'swatch' });
    swatch.setAttribute('aria-hidden', 'true');
    input.after(swatch);
    // Through the CSSOM, which a strict CSP allows (a style attribute it would refuse).
    const paint = () => swatch.style.setProperty('background', input.value.trim() || field.default);
    input.addEventListener('input', paint);
    paint();
    const write = built.write;
    built.write = (text) => {
      write(text);
      paint();
    };
  }
  return built;
}

/** A switch for a `::part()` recipe. */
export function recipeControl(id: string, label: string): FieldControl {
  return control(`recipe:${id}`, label, `::part() rules: ${id}`, element('input', { type: 'checkbox' }), true);
}
