// The day's sends spent (the `daily-` handler allows 5 a day): the input says when writing is
// possible again instead of letting sends fail, Send is disabled (Enter too), and when the reset
// time passes the input comes back by itself. For that last part the reset time the handler
// reports is moved 90 s ahead (the real one is the next UTC midnight), and the page's clock is
// moved past it (a day's window ends more than a minute away, longer than a test can wait).
import { sendKeys } from '@web/test-runner-commands';
import { axeViolations } from '../helpers/browser/axe.js';
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
} from '../helpers/browser/helpers.js';

const SENDS_A_DAY = 5;
let restoreFetch: (() => void) | undefined;
let restoreClock: (() => void) | undefined;
afterEach(() => {
  restoreFetch?.();
  restoreFetch = undefined;
  restoreClock?.();
  restoreClock = undefined;
  unmountAll();
});

/**
 * Moves the `X-RateLimit-Reset` of every answer with nothing left (sends and listings) to `seconds`
 * from now. Answers whether the network is quiet: no request in flight nor any for half a second
 * (a listing's two requests have the cache's writes between them; no answer can redraw the widget).
 */
function resetIn(seconds: number) {
  const reset = String(Math.ceil(Date.now() / 1000) + seconds);
  const original = window.fetch;
  let inFlight = 0;
  let lastActive = performance.now();
  window.fetch = async (input, init) => {
    inFlight++;
    lastActive = performance.now();
    try {
      const response = await original(input, init);
      if (response.headers.get('X-RateLimit-Remaining') !== '0') return response;
      const headers = new Headers(response.headers);
      headers.set('X-RateLimit-Reset', reset);
      return new Response(await response.arrayBuffer(), { status: response.status, headers });
    } finally {
      inFlight--;
      lastActive = performance.now();
    }
  };
  restoreFetch = () => (window.fetch = original);
  return { quiet: () => inFlight === 0 && performance.now() - lastActive > 500 };
}

/**
 * The page's clock, made to pass faster than real time: `passes(ms)` moves `Date.now()` ahead by
 * `ms` and runs at once the timers that came due meanwhile. Timers of more than 30 s are held for
 * that (the widget's wait for the reset time); shorter ones run as usual, so the test's own waits,
 * Lit and the widget's other timers are untouched.
 */
function pageClock() {
  const realNow = Date.now.bind(Date);
  const realSetTimeout = window.setTimeout;
  let skipped = 0;
  const held: { due: number; run: () => void }[] = [];
  Date.now = () => realNow() + skipped;
  window.setTimeout = ((handler: () => void, ms = 0, ...args: unknown[]) => {
    if (ms <= 30_000) return realSetTimeout(handler, ms, ...args);
    held.push({ due: Date.now() + ms, run: handler });
    return 0;
  }) as typeof window.setTimeout;
  restoreClock = () => {
    Date.now = realNow;
    window.setTimeout = realSetTimeout;
  };
  return {
    passes(ms: number) {
      skipped += ms;
      for (const timer of held.splice(0)) {
        if (timer.due <= Date.now()) timer.run();
        else held.push(timer);
      }
    },
  };
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

  it('a page loaded again with the day spent says so before the visitor types, and sends nothing', async () => {
    const { el, namespace } = await mount({ open: '', mode: 'inline' }, freshNamespace('daily'));
    await spendTheDay(el);
    await waitFor(() => input(el).placeholder.startsWith('No messages left today'), 'the input says so');
    el.remove();
    const sends = recordSends();
    try {
      // The figures come with the reloaded page's first listing of the conversation.
      const reloaded = (await mount({ open: '', mode: 'inline' }, namespace)).el;
      await waitFor(
        () => /^No messages left today\. You can write again at \S/.test(input(reloaded).placeholder),
        'the reloaded input says so',
      );
      equal(part(reloaded, 'quota-notice')?.textContent, input(reloaded).placeholder, 'and the notice');
      await typeAndSend(reloaded, 'one more');
      assert(sendButton(reloaded).disabled, 'Send is disabled');
      equal(sends.attempts.length, 0, 'nothing went out');
    } finally {
      sends.stop();
    }
  });

  it('a send the page makes at zero is refused in words that say until when, not in a count of seconds', async () => {
    const { el } = await mount({ open: '', mode: 'inline' }, freshNamespace('daily'));
    await spendTheDay(el);
    const errors: { message: string; retryAfter?: number }[] = [];
    el.addEventListener('chatbot-error', (event) => errors.push((event as CustomEvent).detail));
    await el.send('one more');
    await waitFor(() => parts(el, 'message-failed').length === 1, 'the message shows as not sent');
    await waitFor(() => errors.length === 1, 'one chatbot-error');
    assert(errors[0]!.retryAfter! > 60, `the handler asked for a day's wait: ${errors[0]!.retryAfter}`);
    assert(/^No messages left today\. You can write again at \S+/.test(errors[0]!.message), errors[0]!.message);
    assert(!/seconds/.test(errors[0]!.message), 'no count of seconds');
    equal(part(el, 'error')?.textContent?.includes(errors[0]!.message), true, 'the error part says the same');
  });

  it('comes back by itself when the reset time passes', async () => {
    const network = resetIn(90);
    const clock = pageClock();
    const { el } = await mount({ open: '', mode: 'inline', placeholder: 'Ask away' }, freshNamespace('daily'));
    await spendTheDay(el);
    await waitFor(() => input(el).placeholder.startsWith('No messages left today'), 'the input says so');
    await typeAndSend(el, 'later');
    assert(sendButton(el).disabled, 'Send disabled');
    // Nothing else would redraw the widget now (an answer arriving would): only its own timer can.
    await waitFor(network.quiet, 'the last listing answered');
    await el.updateComplete;
    // The day's last minute is still the day's: a redraw then (the visitor typing) holds on.
    clock.passes(45_000);
    await typeAndSend(el, ' still');
    await el.updateComplete;
    assert(input(el).placeholder.startsWith('No messages left today'), 'still held 45 s before the reset');
    assert(sendButton(el).disabled, 'Send still disabled');
    equal(parts(el, 'message-user').length, SENDS_A_DAY, 'Enter sent nothing');
    clock.passes(46_000);
    await waitFor(() => input(el).placeholder === 'Ask away', 'the placeholder back');
    assert(!sendButton(el).disabled, 'Send enabled for the kept draft');
  });
});
