// "You seem to be offline" only when the browser is offline. A widget on a page whose origin the
// handler does not allow (here: the other loopback name, a different origin for the browser,
// in front of the same real handler, which lists no origins) gets its requests refused by
// CORS; `fetch` then fails exactly as without a connection, and the visitor must be told the
// service cannot be reached, not that their own connection is gone.
import type { ChatbotErrorDetail, ChatbotWidget } from '../../src/browser/index.js';
import { strings as defaultStrings } from '../../src/ui/locales/en.js';
import { strings as de } from '../../src/ui/locales/de.js';
import {
  assert,
  browserOnline,
  endpointOf,
  equal,
  errorText,
  freshNamespace,
  mount,
  network,
  part,
  unmountAll,
  waitFor,
} from '../helpers/browser/helpers.js';
import { thirdPartyOrigin } from '../helpers/browser/inert-dom.js';

afterEach(() => {
  unmountAll();
  browserOnline(true);
});

/** Sends `text` and waits for its failed bubble; returns the `chatbot-error` details fired. */
async function failedSend(el: ChatbotWidget, text: string) {
  const errors: ChatbotErrorDetail[] = [];
  el.addEventListener('chatbot-error', (e) => errors.push(e.detail));
  await el.send(text);
  await waitFor(() => part(el, 'message-failed'), 'the failed bubble');
  await waitFor(() => errors.length > 0, 'a chatbot-error event');
  return errors;
}

describe('<chatbot-widget> reachability', () => {
  it('a handler on another origin that does not allow this page: "can\'t be reached", kind unreachable', async () => {
    const { el } = await mount({ open: '' });
    // The same backend on the other loopback name: cross-origin, not in its allowedOrigins.
    el.endpoint = `${thirdPartyOrigin()}${endpointOf(freshNamespace())}`;
    await el.updateComplete;
    equal(navigator.onLine, true, 'the browser is online');

    const errors = await failedSend(el, 'hello from another site');
    equal(errors[0]?.kind, 'unreachable');
    equal(errors[0]?.status, 0, 'no answer the page may read');
    equal(errorText(el), defaultStrings.errorUnreachable, 'the error part says so, not "offline"');
    equal(errors[0]?.message, defaultStrings.errorUnreachable);
    assert(part(el, 'retry-button'), 'the message is kept with a Retry button');
  });

  it('the same failure in the shipped German locale', async () => {
    const { el } = await mount({ open: '', lang: 'de' });
    await waitFor(() => el.shadowRoot!.querySelector('[part~="panel"][lang="de"]'), 'German loaded');
    el.endpoint = `${thirdPartyOrigin()}${endpointOf(freshNamespace())}`;
    await el.updateComplete;
    const errors = await failedSend(el, 'hallo');
    equal(errors[0]?.kind, 'unreachable');
    equal(errorText(el), de.errorUnreachable, 'the German text');
  });

  it('no connection while the browser says it is offline: the offline text, kind offline', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await network(namespace, 'down');
    browserOnline(false);
    const errors = await failedSend(el, 'written on a train');
    equal(errors[0]?.kind, 'offline');
    equal(errorText(el), defaultStrings.errorOffline, 'the offline text');
  });

  it('no connection while the browser is online (the service is down): "can\'t be reached"', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await network(namespace, 'down');
    const errors = await failedSend(el, 'anyone there?');
    equal(errors[0]?.kind, 'unreachable');
    equal(errorText(el), defaultStrings.errorUnreachable, 'the unreachable text');
  });
});
