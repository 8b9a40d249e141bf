// Accessibility: axe-core finds no violations in light and dark, the list is a live log, the
// floating panel traps focus, Escape closes it and focus returns to the launcher.
import { sendKeys } from '@web/test-runner-commands';
import { axeViolations as violations } from '../helpers/browser/axe.js';
import { assert, equal, mount, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import { visitorWithCachedSessions } from '../helpers/browser/cached-sessions.js';

afterEach(() => unmountAll());

describe('<chatbot-widget> accessibility', () => {
  for (const theme of ['light', 'dark']) {
    it(`has no axe violations with a conversation, ${theme} theme`, async () => {
      const { el } = await mount({ open: '', theme });
      await el.send('markdown-sample');
      await waitForReplies(el, 1);
      equal((await violations(el)).join('\n'), '');
    });
  }

  it('has no axe violations with a code block that scrolls sideways in a narrow column', async () => {
    const { el } = await mount({ mode: 'inline', style: 'height:560px;width:300px' });
    await el.send('layout-sample');
    await waitForReplies(el, 1);
    await el.updateComplete;
    const pre = part(el, 'message-bot')!.querySelector('pre')!;
    assert(pre.scrollWidth > pre.clientWidth, 'the block scrolls');
    pre.focus();
    equal(el.shadowRoot!.activeElement, pre, 'it takes keyboard focus');
    equal((await violations(el)).join('\n'), '');
  });

  it('has no axe violations inline in dark theme, closed launcher included', async () => {
    const inline = await mount({ mode: 'inline', theme: 'dark', style: 'height:400px' });
    equal((await violations(inline.el)).join('\n'), '');
    const floating = await mount({});
    equal((await violations(floating.el)).join('\n'), '');
  });

  for (const theme of ['light', 'dark']) {
    it(`has no axe violations while searching the history, results marked, ${theme} theme`, async () => {
      const { el } = await visitorWithCachedSessions('Où est ma commande ?', [['ma commande arrive quand ?']], { theme });
      part(el, 'history-button')!.click();
      await el.updateComplete;
      part(el, 'search-input')!.focus();
      await sendKeys({ type: 'commande' });
      await waitFor(() => parts(el, 'search-result').length === 2, 'two results');
      assert(
        parts(el, 'search-result').every((r) => r.querySelector('mark')),
        'words marked',
      );
      equal((await violations(el)).join('\n'), '');
      await sendKeys({ type: 'xyz' });
      await waitFor(() => parts(el, 'search-result').length === 0, 'no results');
      equal((await violations(el)).join('\n'), '', 'the empty state');
    });
  }

  it('names the message list as a live log and every control', async () => {
    const { el } = await mount({ open: '' });
    const list = part(el, 'messages')!;
    equal(list.getAttribute('role'), 'log');
    assert(list.getAttribute('aria-label'));
    for (const button of el.shadowRoot!.querySelectorAll('button'))
      assert(button.getAttribute('aria-label') || button.textContent!.trim(), 'a named button');
  });

  it('traps focus in the floating panel; Escape closes it and focus returns to the launcher', async () => {
    const { el } = await mount({});
    const launcher = part(el, 'launcher') as HTMLButtonElement;
    launcher.click();
    // Opened before the panel's code was here: the field takes focus once the panel is painted.
    const input = await waitFor(() => part(el, 'input'), 'the panel drawn');
    await waitFor(() => el.shadowRoot!.activeElement === input, 'focus moves into the panel');
    (part(el, 'send-button') as HTMLButtonElement).disabled = false; // make the last control focusable
    const close = part(el, 'close-button')!;
    const history = part(el, 'history-button')!;
    // From the last focusable control Tab wraps to the first, Shift+Tab from the first to the last.
    const last = part(el, 'send-button')!;
    last.focus();
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, composed: true, cancelable: true }));
    equal(el.shadowRoot!.activeElement, history, 'Tab wraps to the first control');
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true, composed: true, cancelable: true }));
    equal(el.shadowRoot!.activeElement, last, 'Shift+Tab wraps to the last control');
    assert(close);
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    await el.updateComplete;
    equal(el.open, false, 'Escape closes');
    equal(el.shadowRoot!.activeElement, launcher, 'focus back on the launcher');
  });

  it('a floating widget created open puts focus in its field once the panel is painted, not before', async () => {
    const { el } = await mount({ open: '' }); // resolves in the task that rendered the panel
    const input = part(el, 'input');
    assert(input, 'the panel drawn');
    // Focusing lays the page out: before the panel's first frame is painted it would delay it.
    assert(el.shadowRoot!.activeElement !== input, 'no focus before the first paint');
    await waitFor(() => el.shadowRoot!.activeElement === input, 'focus in the field');
  });

  it('fires chatbot-open and chatbot-close from show(), hide() and toggle()', async () => {
    const { el } = await mount({});
    const seen: string[] = [];
    el.addEventListener('chatbot-open', () => seen.push('open'));
    el.addEventListener('chatbot-close', () => seen.push('close'));
    el.show();
    await el.updateComplete;
    el.toggle();
    await el.updateComplete;
    el.toggle();
    await el.updateComplete;
    el.hide();
    await el.updateComplete;
    equal(seen.join(','), 'open,close,open,close');
    equal(el.hasAttribute('open'), false, 'open is reflected');
  });
});
