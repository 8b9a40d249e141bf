// The widget's language in the browser: the `lang` attribute, else the page's `<html lang>`, each
// matched to the closest language shipped (a region or script falls back to its language), and
// English for a tag the widget does not ship or cannot read, with a warning naming it and no error.
import { strings as french } from '../../src/ui/locales/fr.js';
import { strings as japanese } from '../../src/ui/locales/ja.js';
import { strings as english } from '../../src/ui/locales/en.js';
import { sendKeys } from '@web/test-runner-commands';
import { equal, mount, part, parts, typeAndSend, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

const pageLang = document.documentElement.getAttribute('lang');
let consoleErrors: unknown[][] = [];
let warnings: string[] = [];
const realError = console.error;
const realWarn = console.warn;
beforeEach(() => {
  consoleErrors = [];
  warnings = [];
  console.error = (...args: unknown[]) => {
    consoleErrors.push(args);
    realError(...args);
  };
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
});
afterEach(() => {
  console.error = realError;
  console.warn = realWarn;
  if (pageLang === null) document.documentElement.removeAttribute('lang');
  else document.documentElement.setAttribute('lang', pageLang);
  unmountAll();
});

/** The panel's Send button once the panel and its language are drawn, and the panel's direction. */
async function shown(attributes: Record<string, string>) {
  const { el } = await mount({ open: '', mode: 'inline', ...attributes });
  const send = await waitFor(() => part(el, 'send-button'), 'the panel');
  const panel = part(el, 'panel')!;
  return { el, send: send.textContent!.trim(), dir: getComputedStyle(panel).direction, lang: panel.getAttribute('lang') };
}

describe('<chatbot-widget> language', () => {
  it('falls back to English for a language it does not ship, and for a tag it cannot read', async () => {
    for (const lang of ['tlh', 'xx-YY', 'not a tag!', '']) {
      const { el, send, dir } = await shown({ lang });
      equal(send, english.send, `lang="${lang}"`);
      equal(dir, 'ltr', `lang="${lang}": left to right`);
      equal(part(el, 'input')!.getAttribute('aria-label'), english.inputLabel, `lang="${lang}": the field's name`);
      el.remove();
    }
    equal(consoleErrors.length, 0, 'no error on the console');
    // One warning for each tag the page asked for that is not shipped, naming it, none for an empty one.
    equal(
      warnings.filter((w) =>
        /lang="(tlh|xx-YY|not a tag!)" is not one of the shipped languages.*showing English\. Set lang to one of them/.test(w),
      ).length,
      3,
      warnings.join('\n'),
    );
    equal(warnings.length, 3, 'nothing else warned');
  });

  it("takes the page's <html lang> when the element has none, matched to the closest language shipped", async () => {
    document.documentElement.setAttribute('lang', 'ja-JP');
    equal((await shown({})).send, japanese.send, 'ja-JP: Japanese');
    document.documentElement.setAttribute('lang', 'zz');
    equal((await shown({})).send, english.send, 'zz: English');
  });

  it('in an Arabic panel, Latin texts read left to right: heading, greeting, suggestions, history lines and search results', async () => {
    const { el } = await shown({
      lang: 'ar',
      heading: 'Example Corp help',
      greeting: 'What would you like to know?',
      suggestions: '["Does it work offline?"]',
    });
    equal(getComputedStyle(part(el, 'panel')!).direction, 'rtl', 'the panel is right to left');
    const direction = (node: Element | null | undefined) => (node ? getComputedStyle(node).direction : 'missing');
    equal(direction(el.shadowRoot!.getElementById('heading')), 'ltr', 'the heading');
    equal(direction(await waitFor(() => part(el, 'greeting')?.querySelector('.plain'), 'the greeting')), 'ltr', 'the greeting');
    equal(direction(part(el, 'suggestion')), 'ltr', 'a suggestion');
    await typeAndSend(el, 'Where is my order?');
    await waitForReplies(el, 1);
    part(el, 'history-button')!.click();
    const session = await waitFor(() => part(el, 'session'), 'a conversation in the history');
    equal(direction(session.querySelector('.line')), 'ltr', "a conversation's first line");
    (part(el, 'search-input') as HTMLInputElement).focus();
    await sendKeys({ type: 'order' });
    const result = await waitFor(() => parts(el, 'search-result')[0], 'a search result');
    equal(direction(result.querySelector('.line')), 'ltr', 'a search result');
  });

  it("prefers the element's lang to the page's, with a region falling back to its language", async () => {
    document.documentElement.setAttribute('lang', 'ja');
    const { send, lang } = await shown({ lang: 'fr-CA' });
    equal(send, french.send, 'fr-CA: French');
    equal(lang, 'fr', 'the panel says which language it is in');
  });
});
