// The empty conversation: `greeting` as the assistant's first words (shown as text, never sent
// nor stored) and `suggestions` as a labelled group of prompts that send through the element's
// own path (chatbot-send, the outbox and its idempotency key); both go once a message exists. A
// `suggestions` attribute that is not a JSON array of strings warns once and offers nothing.
import { render } from 'lit';
import type { ChatbotSendDetail } from '../../src/browser/index.js';
import { renderSuggestions } from '../../src/chatbot-widget/panel/greeting.js';
import { strings as defaultStrings } from '../../src/ui/locales/en.js';
import { axeViolations } from '../helpers/browser/axe.js';
import {
  assert,
  bubbleTexts,
  equal,
  mount,
  part,
  parts,
  recordSends,
  storedIdentity,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';
import { press, tabTo } from '../helpers/browser/keyboard.js';

const GREETING = 'Hi <b>there</b> & <img src=x onerror="window.__pwned=1">';

let restoreWarn: (() => void) | undefined;
afterEach(() => {
  restoreWarn?.();
  restoreWarn = undefined;
  unmountAll();
});

/** Records console.warn calls for one test. */
function recordWarnings() {
  const original = console.warn;
  const warnings: string[] = [];
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  restoreWarn = () => (console.warn = original);
  return warnings;
}

const suggestionTexts = (el: HTMLElement) => parts(el, 'suggestion').map((b) => b.textContent!.trim());

describe('<chatbot-widget> greeting and suggestions', () => {
  it('shows the greeting as text in an empty conversation, never sends it, and drops it once a message exists', async () => {
    const { el, namespace } = await mount({ open: '', mode: 'inline', greeting: GREETING });
    const greeting = await waitFor(() => part(el, 'greeting'), 'the greeting');
    equal(greeting.querySelector('.plain')!.textContent, GREETING, 'shown as written');
    equal(greeting.querySelectorAll('b, img').length, 0, 'markup is text');
    assert(!(window as { __pwned?: unknown }).__pwned, 'nothing ran');
    await el.send('first');
    await waitForReplies(el, 1);
    equal(part(el, 'greeting'), null, 'gone with the first message');
    const identity = await storedIdentity(namespace);
    const stored = await upstreamMessages(identity!.userId);
    equal(stored.map((m) => m.text).join('|'), 'You said: first|first', 'the greeting was neither sent nor stored');
  });

  it('sends a chosen suggestion through chatbot-send and the outbox, then hides the prompts', async () => {
    const sends = recordSends();
    try {
      const { el } = await mount({ open: '', mode: 'inline', suggestions: '["What is this?", "Pricing?"]' });
      const events: ChatbotSendDetail[] = [];
      el.addEventListener('chatbot-send', (event) => events.push(event.detail));
      await waitFor(() => parts(el, 'suggestion').length === 2, 'two prompts');
      equal(suggestionTexts(el).join('|'), 'What is this?|Pricing?');
      const group = part(el, 'suggestion')!.closest('[role="group"]')!;
      equal(group.getAttribute('aria-label'), 'Suggested questions', 'a labelled group');
      parts(el, 'suggestion')[1]!.click();
      await waitForReplies(el, 1);
      equal(events.map((e) => e.text).join('|'), 'Pricing?', 'chatbot-send fired with the prompt');
      assert(sends.attempts[0]?.key, 'sent with an idempotency key (the outbox)');
      equal(sends.attempts[0]!.content, 'Pricing?');
      equal(bubbleTexts(el).join('|'), 'Pricing?|You said: Pricing?');
      equal(parts(el, 'suggestion').length, 0, 'the prompts are gone');
    } finally {
      sends.stop();
    }
  });

  it('takes the property as an array of strings, text only, each once', async () => {
    const { el } = await mount({ open: '', mode: 'inline' });
    el.suggestions = ['One', ' ', 'Two', 'One', { _$litType$: 1 } as unknown as string, '<i>Three</i>'];
    await el.updateComplete;
    await waitFor(() => parts(el, 'suggestion').length > 0, 'the prompts');
    equal(suggestionTexts(el).join('|'), 'One|Two|<i>Three</i>');
  });

  it('ignores a suggestions attribute that is not a JSON array of strings, with one warning each', async () => {
    const warnings = recordWarnings();
    const { el } = await mount({ open: '', mode: 'inline', suggestions: 'not json' });
    equal(warnings.length, 1, 'one warning');
    assert(/suggestions/.test(warnings[0]!) && /JSON array of strings/.test(warnings[0]!), `says what is expected: ${warnings[0]}`);
    el.setAttribute('suggestions', '["fine", 3]');
    await el.updateComplete;
    el.setAttribute('suggestions', '{"a": "b"}');
    await el.updateComplete;
    equal(warnings.length, 3, 'one warning per bad value');
    equal(parts(el, 'suggestion').length, 0, 'no prompts');
    el.setAttribute('suggestions', '["fine"]');
    await el.updateComplete;
    await waitFor(() => suggestionTexts(el).join() === 'fine', 'a good value after a bad one');
    equal(warnings.length, 3, 'a good value warns nothing');
  });

  it('sends a suggestion from the keyboard alone; axe-core finds nothing with greeting and prompts', async () => {
    for (const theme of ['light', 'dark']) {
      const { el } = await mount({ open: '', mode: 'inline', theme, greeting: 'Hello! How can I help?', suggestions: '["Help me"]' });
      await waitFor(() => part(el, 'suggestion') && part(el, 'greeting'), 'greeting and prompt');
      equal((await axeViolations(el)).join('\n'), '', `${theme}:`);
    }
    unmountAll();
    const { el } = await mount({ open: '', mode: 'inline', suggestions: '["Help me"]' });
    await waitFor(() => part(el, 'suggestion'), 'the prompt');
    part(el, 'messages')!.focus();
    await tabTo(el, 'suggestion');
    await press('Enter');
    await waitForReplies(el, 1);
    equal(bubbleTexts(el).join('|'), 'Help me|You said: Help me');
  });

  it('disables the prompts while no send is possible', () => {
    const container = document.createElement('div');
    document.body.append(container);
    let chosen = '';
    render(
      renderSuggestions(['A'], defaultStrings, true, (text) => (chosen = text)),
      container,
    );
    const button = container.querySelector('button')!;
    assert(button.disabled, 'disabled');
    button.click();
    equal(chosen, '', 'a disabled prompt sends nothing');
    container.remove();
  });
});
