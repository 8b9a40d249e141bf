// Exactly once under stress, against the real handler and emulator over HTTP, with an upstream
// that answers slowly (held 0.3 s before storing and 0.8 s before answering) and drops a quarter
// of the sends' connections after storing them (test/helpers/browser/backend.ts, `stress-` namespaces; the
// faults come from a fixed seed). The verdict is counted from upstream, message by message:
// every text sent is stored exactly once, none is lost.
import type { ChatbotWidget } from '../../src/browser/index.js';
import {
  assert,
  browserOnline,
  bubbleTexts,
  equal,
  freshNamespace,
  mount,
  network,
  parts,
  storedIdentity,
  unmountAll,
  upstreamMessages,
  waitFor,
} from '../helpers/browser/helpers.js';

afterEach(() => {
  unmountAll();
  browserOnline(true);
});

const SUITE_TIMEOUT = 60_000;

/**
 * The connection goes away: the backend's switch closes this namespace's connections and the
 * browser says it is offline (`navigator.onLine`, the `offline` event); and comes back.
 */
async function goOffline(namespace: string) {
  await network(namespace, 'down');
  browserOnline(false);
  window.dispatchEvent(new Event('offline'));
}
async function comeBack(namespace: string) {
  await network(namespace, 'up');
  browserOnline(true);
  window.dispatchEvent(new Event('online'));
}

/** The visitor's messages upstream that `sender` sent, oldest first. */
async function storedTexts(namespace: string, sender: 'User' | 'Bot' = 'User') {
  const identity = await waitFor(() => storedIdentity(namespace), 'a visitor');
  return (await upstreamMessages(identity.userId))
    .filter((m) => m.senderType === sender)
    .map((m) => m.text)
    .reverse();
}

/** Every message of `sent` is stored exactly once (as a multiset: texts may repeat); fails naming the first that is not. */
async function expectStoredOnce(namespace: string, sent: string[]) {
  const stored = await waitFor(
    async () => {
      const texts = await storedTexts(namespace);
      // Each question is answered: once all replies are there, nothing is still on its way.
      return texts.length >= sent.length && (await storedTexts(namespace, 'Bot')).length >= texts.length ? texts : undefined;
    },
    `${sent.length} messages stored and answered`,
    40_000,
  ).catch(async (error) => {
    throw new Error(`${(error as Error).message}; stored so far: ${JSON.stringify(await storedTexts(namespace))}`);
  });
  const count = (list: string[]) => list.reduce((map, t) => map.set(t, (map.get(t) ?? 0) + 1), new Map<string, number>());
  const want = count(sent);
  const got = count(stored);
  for (const [text, times] of want) equal(got.get(text) ?? 0, times, `"${text}" stored`);
  equal(stored.length, sent.length, `nothing else stored (${JSON.stringify(stored)})`);
}

/** Resolves once the widget shows no pending or failed message. */
const settled = (el: ChatbotWidget, what: string) =>
  waitFor(() => parts(el, 'message-pending').length === 0 && parts(el, 'message-failed').length === 0, what, 40_000);

describe('<chatbot-widget> exactly once under stress', function (this: { timeout(ms: number): void }) {
  this.timeout(SUITE_TIMEOUT);

  it('reloads while replies are pending: every message stored once', async () => {
    const namespace = freshNamespace('stress');
    const sent: string[] = [];
    let widget = (await mount({ open: '' }, namespace)).el;
    for (let i = 1; i <= 6; i++) {
      const text = `reload ${i}`;
      await widget.send(text);
      sent.push(text);
      // The send is on its way (upstream holds it 1.1 s): reload now, at varying moments.
      await new Promise((resolve) => setTimeout(resolve, 150 + 150 * i));
      unmountAll();
      widget = (await mount({ open: '' }, namespace)).el;
    }
    await settled(widget, 'the outbox emptied after the last reload');
    await expectStoredOnce(namespace, sent);
    await waitFor(() => bubbleTexts(widget, 'message-user').join('|') === sent.join('|'), 'each shown once, in order', 10_000);
  });

  it('two tabs sending the same short texts: every message stored once, none lost', async () => {
    const namespace = freshNamespace('stress');
    const one = (await mount({ open: '', mode: 'inline' }, namespace)).el;
    await one.send('hi'); // the visitor exists before the second tab sends
    await settled(one, 'the first send');
    const two = (await mount({ open: '', mode: 'inline' }, namespace)).el;
    const sent = ['hi'];
    const texts = ['yes', 'ok', 'yes', 'yes', 'ok'];
    const sends: Promise<unknown>[] = [];
    for (const text of texts) {
      sends.push(one.send(text), two.send(text));
      sent.push(text, text);
      await new Promise((resolve) => setTimeout(resolve, 120)); // paced, so sends overlap each other's replies
    }
    await Promise.all(sends);
    await settled(one, 'tab one settled');
    await settled(two, 'tab two settled');
    await expectStoredOnce(namespace, sent);
    // Both tabs end up showing the conversation upstream holds.
    const stored = await storedTexts(namespace);
    await waitFor(() => bubbleTexts(one, 'message-user').join('|') === stored.join('|'), 'tab one shows each once', 10_000);
    await waitFor(() => bubbleTexts(two, 'message-user').join('|') === stored.join('|'), 'tab two shows each once', 10_000);
  });

  it('the network going away and back: answers lost on the way and sends made offline, each stored once', async () => {
    const namespace = freshNamespace('stress');
    const { el } = await mount({ open: '' }, namespace);
    const sent = ['before the outage'];
    await el.send(sent[0]!);
    await settled(el, 'the first send');
    for (let round = 1; round <= 2; round++) {
      // The connection breaks while the answer is on its way: stored upstream, unknown here.
      await network(namespace, 'drop');
      const lost = `answer lost ${round}`;
      await el.send(lost);
      sent.push(lost);
      await waitFor(() => parts(el, 'message-failed').length === 1, 'the lost answer', 10_000);
      await goOffline(namespace);
      for (const text of [`offline ${round}a`, `offline ${round}b`]) {
        await el.send(text);
        sent.push(text);
      }
      await waitFor(() => parts(el, 'message-failed').length === 3, 'the sends made offline failing');
      // Back online: the widget resends by itself, in order, with the same keys.
      await comeBack(namespace);
      await settled(el, `round ${round} settled`);
    }
    await expectStoredOnce(namespace, sent);
    await waitFor(() => bubbleTexts(el, 'message-user').join('|') === sent.join('|'), 'each shown once, in order', 10_000);
    assert(!parts(el, 'message-failed').length, 'nothing left failed');
  });
});
