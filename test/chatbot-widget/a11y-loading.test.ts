// The panel a visitor sees when they open the chat before its code has arrived: the "Loading
// the chat…" line, checked with axe-core. The code is held back for this page from the first
// test to the last (web-test-runner.config.mjs), which is why these tests have a file of their
// own: a page that has imported that code once never fetches it again.
import { executeServerCommand } from '@web/test-runner-commands';
import { axeViolations } from '../helpers/browser/axe.js';
import { assert, equal, mountWatched, part, unmountAll, waitFor } from '../helpers/browser/helpers.js';

before(() => executeServerCommand('hold-panel-code'));
after(() => executeServerCommand('release-panel-code'));
afterEach(() => unmountAll());

/** Opens a widget while its panel's code is held back; answers it and its loading line. */
async function openWhileLoading(theme = 'light') {
  const { el } = mountWatched({ open: '', theme });
  const line = await waitFor(() => el.shadowRoot!.querySelector<HTMLElement>('[part~="panel"] .loading'), `${theme}: the loading line`);
  equal(part(el, 'input'), null, 'the panel itself is not here yet');
  return { el, line };
}

describe('<chatbot-widget> loading line', () => {
  // The dialog is named by the panel's title, which its code draws: until then the loading line
  // stands in for it.
  it('names the dialog while it loads, and axe finds nothing', async () => {
    const { el } = await openWhileLoading();
    const panel = part(el, 'panel')!;
    const name =
      panel.getAttribute('aria-label') ?? el.shadowRoot!.getElementById(panel.getAttribute('aria-labelledby') ?? '')?.textContent;
    assert(name?.trim(), 'the dialog has a name');
    equal((await axeViolations(el)).join('\n'), '');
  });

  it('is a status with no axe violation, light and dark', async () => {
    for (const theme of ['light', 'dark']) {
      const { el, line } = await openWhileLoading(theme);
      equal(line.textContent!.trim(), 'Loading the chat…');
      equal(line.getAttribute('role'), 'status', 'read out as a status');
      equal((await axeViolations(el)).join('\n'), '', `${theme}:`);
    }
  });

  it('gives way to the panel, focus in its field, once the code arrives', async () => {
    const { el } = await openWhileLoading();
    // Held back, the code does not arrive by itself, however long the visitor waits.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert(el.shadowRoot!.querySelector('.loading') && !part(el, 'input'), 'still loading');
    await executeServerCommand('release-panel-code');
    const input = await waitFor(() => part(el, 'input'), 'the panel');
    assert(!el.shadowRoot!.querySelector('.loading'), 'the line is gone');
    await waitFor(() => el.shadowRoot!.activeElement === input, 'focus in the field');
  });
});
