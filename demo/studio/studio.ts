/**
 * The studio page (`/studio` of npm start): the element's fields from the package's Custom
 * Elements Manifest, a live widget beside them, the snippets of what is chosen, and the whole
 * configuration in the address's fragment so a link restores it. A value the form cannot take
 * is said at its field and never reaches the widget or the snippets.
 */
import type { ChatbotWidget } from '../../src/browser/index.js';
import { AA_TEXT_CONTRAST, TEXT_PAIRS, contrastRatio, type Rgb } from './contrast.js';
import { toRgb } from './colour-probe.js';
import { recipeControl, styleFieldControl, widgetFieldControl, type FieldControl } from './field-controls.js';
import { LivePreview } from './live-preview.js';
import { PART_RECIPES } from './recipes.js';
import { SnippetPanel } from './snippet-panel.js';
import { isSafeStyleValue } from './snippets.js';
import {
  attributeText,
  configFromHash,
  configToHash,
  emptyConfig,
  parseFieldText,
  type FieldValue,
  type StudioConfig,
} from './studio-config.js';
import { styleFields, widgetFields, type Manifest, type StyleField, type WidgetField } from './widget-fields.js';

const manifest = (await (await fetch('/custom-elements.json')).json()) as Manifest;
const fields = widgetFields(manifest);
const styles = styleFields(manifest);
await customElements.whenDefined('chatbot-widget');

const widget = document.getElementById('live-widget') as ChatbotWidget;
const preview = new LivePreview(widget, fields);
const snippets = new SnippetPanel(document.getElementById('snippets')!, { origin: location.origin });
const status = document.getElementById('studio-status')!;
let config: StudioConfig = emptyConfig();

const fieldControls = fields.map((field) => ({ field, control: widgetFieldControl(field) }));
const styleControls = styles.map((field) => ({ field, control: styleFieldControl(field) }));
const recipeControls = PART_RECIPES.map((recipe) => ({ recipe, control: recipeControl(recipe.id, recipe.label) }));
document.getElementById('widget-fields')!.append(...fieldControls.map(({ control }) => control.root));
document.getElementById('style-fields')!.append(...styleControls.map(({ control }) => control.root));
document.getElementById('recipe-fields')!.append(...recipeControls.map(({ control }) => control.root));

/** Takes one widget field's text into the configuration, or says at the field why not. */
function takeWidgetField(field: WidgetField, control: FieldControl): void {
  const text = control.read();
  const target = field.attribute ? config.attributes : config.properties;
  const key = field.attribute ?? field.name;
  if (text.trim() === '') {
    delete target[key];
    control.say('');
    return;
  }
  const parsed = parseFieldText(field, text);
  if (!parsed.ok) return control.say(`${parsed.message} The widget keeps its last good value.`);
  control.say('');
  if (parsed.value === false) delete target[key];
  else target[key] = parsed.value as FieldValue;
}

/** The browser's CSS parser decides what a custom property may hold. */
function styleProblem(field: StyleField, value: string): string | undefined {
  const property = { colour: 'color', font: 'font-family', length: 'width', number: 'z-index' }[field.kind];
  if (!isSafeStyleValue(value) || !CSS.supports(property, value)) {
    return {
      colour: 'Not a CSS colour (#0f766e, teal, rgb(…)).',
      font: 'Not a font family list.',
      length: 'Not a CSS length (16px, 1.2em).',
      number: 'Not a whole number.',
    }[field.kind];
  }
  return undefined;
}

function takeStyleField(field: StyleField, control: FieldControl): void {
  const value = control.read().trim();
  if (value === '') {
    delete config.styles[field.name];
    return control.say('');
  }
  const problem = styleProblem(field, value);
  if (problem) return control.say(`${problem} The widget keeps its last good value.`);
  control.say('');
  config.styles[field.name] = value;
}

/**
 * WCAG AA for each text colour on its background, where the owner set one of the two: the other
 * is the owner's too, or the element's default (the manifest's, which are the light theme's, so
 * in another theme only pairs the owner set both of are checked).
 */
function checkContrast(): void {
  const lightTheme = (config.attributes.theme ?? 'light') === 'light';
  const colourOf = (name: string): Rgb | undefined => {
    const value = config.styles[name] ?? (lightTheme ? styles.find((s) => s.name === name)?.default : undefined);
    return value ? toRgb(value) : undefined;
  };
  const warnings = new Map<string, string[]>();
  for (const pair of TEXT_PAIRS) {
    if (!(pair.text in config.styles) && !(pair.background in config.styles)) continue;
    const [text, background] = [colourOf(pair.text), colourOf(pair.background)];
    if (!text || !background) continue;
    const ratio = contrastRatio(text, background);
    if (ratio >= AA_TEXT_CONTRAST) continue;
    const warning = `Contrast ${ratio.toFixed(2)}:1 between ${pair.text} and ${pair.background} (${pair.where}): below ${AA_TEXT_CONTRAST}:1, the WCAG AA minimum for text.`;
    for (const name of [pair.text, pair.background])
      if (name in config.styles) warnings.set(name, [...(warnings.get(name) ?? []), warning]);
  }
  for (const { field, control } of styleControls) {
    const problem = warnings.get(field.name);
    // A value the field refused keeps its error; a warning never hides it.
    if (control.input.getAttribute('aria-invalid') !== 'true') control.say(problem ? problem.join(' ') : '', 'warning');
  }
}

/** Shows the configuration everywhere: live widget, snippets, address, contrast. */
function render(): void {
  preview.show(config);
  snippets.show(config);
  checkContrast();
  history.replaceState(history.state, '', `${location.pathname}${location.search}#${configToHash(config)}`);
}

/** Fills the form from a configuration (a link's) and shows it. */
function load(hash: string): void {
  const restored = configFromHash(hash, fields);
  config = restored.config;
  for (const { field, control } of fieldControls) {
    const value = field.attribute ? config.attributes[field.attribute] : config.properties[field.name];
    control.write(value === undefined ? '' : field.attribute ? attributeText(value as FieldValue) : JSON.stringify(value));
    control.say('');
  }
  for (const { field, control } of styleControls) control.write(config.styles[field.name] ?? '');
  for (const { recipe, control } of recipeControls) control.write(String(config.recipes.includes(recipe.id)));
  config.recipes = config.recipes.filter((id) => PART_RECIPES.some((recipe) => recipe.id === id));
  status.textContent = restored.problems.length
    ? `The link's values for ${restored.problems.join(', ')} could not be read and were left out.`
    : '';
  render();
}

for (const { field, control } of fieldControls) {
  control.input.addEventListener('input', () => {
    takeWidgetField(field, control);
    render();
  });
}
for (const { field, control } of styleControls) {
  control.input.addEventListener('input', () => {
    takeStyleField(field, control);
    render();
  });
}
for (const { recipe, control } of recipeControls) {
  control.input.addEventListener('change', () => {
    config.recipes = control.read()
      ? [...config.recipes.filter((id) => id !== recipe.id), recipe.id]
      : config.recipes.filter((id) => id !== recipe.id);
    render();
  });
}
document.getElementById('studio-reset')!.addEventListener('click', () => load(''));
window.addEventListener('hashchange', () => load(location.hash));
load(location.hash);
document.body.dataset.studioReady = 'true';

/** For tests and the console: resolves once the snippets of the current configuration are shown. */
(window as unknown as { studioSettled: () => Promise<void> }).studioSettled = () => snippets.settled;
