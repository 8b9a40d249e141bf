// The history pane when its code cannot be fetched (every fetch of it fails on this page, as
// offline before its first use: web-test-runner.config.mjs, which is why this test has a file of
// its own): the pane still opens on the first press, and says what went wrong in its place, as
// the panel does when its own code fails; the conversation stays usable.
import { executeServerCommand } from '@web/test-runner-commands';
import { assert, equal, mount, part, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

before(() => executeServerCommand('fail-history-pane-code'));
afterEach(() => unmountAll());

describe('<chatbot-widget> history pane, when its code fails to load', () => {
  it('opens on the first press with its heading, says what went wrong, and closes again', async () => {
    const { el } = await mount({ open: '' });
    const button = part(el, 'history-button') as HTMLButtonElement;
    button.click();
    await el.updateComplete;
    const pane = part(el, 'history');
    assert(pane && !pane.hidden, 'the pane is shown at once');
    equal(button.getAttribute('aria-pressed'), 'true');
    equal(pane.querySelector('h3')?.textContent, el.text.historyHeading, 'its heading names it');
    const alert = await waitFor(() => part(el, 'history')?.querySelector('[role="alert"]'), 'what went wrong');
    equal(alert.textContent, el.text.errorUnreachable);
    button.click();
    await el.updateComplete;
    equal(part(el, 'history'), null, 'closed again');
    equal(button.getAttribute('aria-pressed'), 'false');
    await el.send('still here');
    await waitForReplies(el, 1);
  });
});
