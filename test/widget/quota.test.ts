// The day's sends spent (the `daily-` handler allows 5 a day): the input says when writing is
// possible again instead of letting sends fail, Send is disabled (Enter too), and when the reset
// time passes the input comes back by itself. For that last part the reset time the handler
// reports is moved a few seconds ahead (the real one is the next UTC midnight).
import { sendKeys } from '@web/test-runner-commands';
import { axeViolations } from './support/axe.js';
import {
  assert,
  equal,
  freshNamespace,
  mount,
  part,
  parts,
  recordSends,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
} from './support/helpers.js';

const SENDS_A_DAY = 5;
let restoreFetch: (() => void) | undefined;
afterEach(() => {
  restoreFetch?.();
  restoreFetch = undefined;
  unmountAll();
});

/** Moves the `X-RateLimit-Reset` of every send answer with nothing left to `seconds` from now. */
function resetSoon(seconds: number) {
  const original = window.fetch;
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    if (init?.method !== 'POST' || response.headers.get('X-RateLimit-Remaining') !== '0') return response;
    const headers = new Headers(response.headers);
    headers.set('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + seconds));
    return new Response(await response.arrayBuffer(), { status: response.status, headers });
  };
  restoreFetch = () => (window.fetch = original);
}

async function spendTheDay(el: Parameters<typeof waitForReplies>[0] & { send(text: string): Promise<unknown> }) {
  for (let i = 1; i <= SENDS_A_DAY; i++) {
    await el.send(`message ${i}`);
    await waitForReplies(el, i);
  }
}

const input = (el: HTMLElement) => part(el, 'input') as HTMLTextAreaElement;
const sendButton = (el: HTMLElement) => part(el, 'send-button') as HTMLButtonElement;

describe('<chatbot-widget> quota at zero', () => {
  it('says in the input when writing is possible again and sends nothing until then', async () => {
    const { el } = await mount({ open: '', mode: 'inline' }, freshNamespace('daily'));
    await spendTheDay(el);
    await waitFor(() => /^No messages left today\. You can write again at \S/.test(input(el).placeholder), 'the input says so');
    const notice = part(el, 'quota-notice')!;
    equal(input(el).getAttribute('aria-describedby'), notice.id, 'the field is described by the notice');
    equal(notice.textContent, input(el).placeholder, 'which says the same');
    const sends = recordSends();
    try {
      await typeAndSend(el, 'one more');
      assert(sendButton(el).disabled, 'Send is disabled with a draft typed');
      equal(sends.attempts.length, 0, 'Enter sent nothing');
      equal(parts(el, 'message-failed').length, 0, 'no failed message');
      equal(input(el).value, 'one more', 'the draft is kept for later');
      // With real keys: Enter keeps the text in the field, and Tab passes over the disabled Send.
      input(el).focus();
      await sendKeys({ type: ' still' });
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      equal(input(el).value, 'one more still', 'Enter sent nothing');
      assert(sendButton(el).disabled, 'Send still disabled');
      await sendKeys({ press: 'Tab' });
      assert(el.shadowRoot!.activeElement !== sendButton(el), 'Tab does not stop on the disabled Send');
      equal(sends.attempts.length, 0, 'nothing went out');
    } finally {
      sends.stop();
    }
    equal((await axeViolations(el)).join('\n'), '');
  });

  it('comes back by itself when the reset time passes', async () => {
    resetSoon(3);
    const { el } = await mount({ open: '', mode: 'inline', placeholder: 'Ask away' }, freshNamespace('daily'));
    await spendTheDay(el);
    await waitFor(() => input(el).placeholder.startsWith('No messages left today'), 'the input says so');
    await typeAndSend(el, 'later');
    assert(sendButton(el).disabled, 'Send disabled');
    await waitFor(() => input(el).placeholder === 'Ask away', 'the placeholder back', 6_000);
    assert(!sendButton(el).disabled, 'Send enabled for the kept draft');
  });
});
