// Exactly once, one behaviour at a time: every outbox entry carries one idempotency key, stored
// with it and sent on every attempt; a confirmed message is replaced by its server copy by id
// (never by text, so repeated short texts all stay); a reload during a pending reply stores the
// message once; entries found after a reload go out in order with their keys. Real handler and
// emulator behind (test/helpers/browser/backend.ts).
import type { ChatbotErrorDetail } from '../../src/browser/index.js';
import { strings as defaultStrings } from '../../src/ui/locales/en.js';
import {
  absoluteEndpoint,
  assert,
  bubbleTexts,
  equal,
  freshNamespace,
  idbSet,
  idbStore,
  mount,
  network,
  part,
  parts,
  quietFor,
  recordSends,
  storedIdentity,
  storedOutbox,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
  withoutStoredIds,
} from '../helpers/browser/helpers.js';

const KEY = /^[A-Za-z0-9_-]{1,128}$/;
let recording: ReturnType<typeof recordSends> | undefined;
let restore: (() => void) | undefined;

afterEach(() => {
  recording?.stop();
  recording = undefined;
  restore?.();
  restore = undefined;
  unmountAll();
});

/** The visitor's messages upstream, oldest first. */
async function upstreamOf(namespace: string) {
  const identity = await waitFor(() => storedIdentity(namespace), 'a visitor');
  return (await upstreamMessages(identity.userId)).reverse();
}

/** Waits until upstream holds each of `texts` and its reply, and the widget shows exactly those, by id, in order. */
async function expectServerCopiesOnce(el: HTMLElement, namespace: string, texts: string[]) {
  const upstream = await waitFor(async () => {
    const list = await upstreamOf(namespace);
    return list.length === texts.length * 2 ? list : undefined;
  }, 'every message upstream');
  const ids = upstream.map((m) => m.id).join('|');
  await waitFor(
    () =>
      parts(el, 'message')
        .map((m) => m.dataset.key)
        .join('|') === ids,
    'the server copies, each once, in order',
  );
  equal(bubbleTexts(el, 'message-user').join('|'), texts.join('|'), 'every message shown once, in order');
}

describe('<chatbot-widget> exactly once', () => {
  it('stores one key with each entry and sends it on every attempt, so a lost answer is not stored twice', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await el.send('warm up'); // the visitor exists: only the send is dropped below
    await waitForReplies(el, 1);
    recording = recordSends();
    await network(namespace, 'drop'); // the handler and upstream act, the answer is lost
    await el.send('answer lost');
    await waitFor(() => part(el, 'message-failed'), 'the failed bubble');
    const [entry] = await storedOutbox(namespace);
    assert(entry && KEY.test(entry.key), `a key in the stored entry: ${JSON.stringify(entry)}`);
    await network(namespace, 'up');
    (part(el, 'retry-button') as HTMLButtonElement).click();
    await waitForReplies(el, 2);
    equal(recording.attempts.length, 2, 'two attempts');
    assert(
      recording.attempts.every((a) => a.key === entry.key),
      `every attempt carried the stored key: ${JSON.stringify(recording.attempts)}`,
    );
    equal((await upstreamOf(namespace)).filter((m) => m.text === 'answer lost').length, 1, 'stored once');
    equal((await storedOutbox(namespace)).length, 0, 'the outbox is empty once confirmed');
  });

  it('gives each message its own key', async () => {
    recording = recordSends();
    const { el } = await mount({ open: '' });
    await Promise.all([el.send('one'), el.send('two'), el.send('three')]);
    await waitForReplies(el, 3);
    const keys = recording.attempts.map((a) => a.key);
    equal(keys.length, 3, 'three sends');
    equal(new Set(keys).size, 3, 'three different keys');
    assert(
      keys.every((k) => KEY.test(k ?? '')),
      `keys the handler accepts: ${keys.join(' ')}`,
    );
  });

  it('shows repeated short texts once each: confirmed bubbles are replaced by id, never matched by text', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    const texts = ['yes', 'ok', 'yes', 'yes', 'ok'];
    await Promise.all(texts.map((t) => el.send(t)));
    await waitForReplies(el, texts.length);
    // The bubbles carry the server ids (from the send answers, then the revalidation), each once.
    await expectServerCopiesOnce(el, namespace, texts);
    // Settled: a later revalidation changes nothing.
    await quietFor(400);
    equal(parts(el, 'message').length, texts.length * 2, 'nothing doubled after revalidating');
  });

  it('without ids from the handler, keeps each confirmed bubble until a later revalidation, and loses no repeated text', async () => {
    restore = withoutStoredIds();
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    const texts = ['yes', 'yes', 'ok', 'yes'];
    for (const [i, text] of texts.entries()) {
      await el.send(text);
      await waitForReplies(el, i + 1);
    }
    await expectServerCopiesOnce(el, namespace, texts);
  });

  it('stores a message once when the page reloads while its reply is pending', async () => {
    recording = recordSends();
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('slow question'); // the reply takes 1.5 s upstream
    await waitFor(() => recording!.attempts.length === 1, 'the first attempt on its way');
    await new Promise((resolve) => setTimeout(resolve, 300)); // long enough to reach upstream, well short of its reply
    unmountAll(); // the reload: the request is aborted, the entry stays pending in IndexedDB
    equal((await storedOutbox(namespace))[0]?.state, 'pending', 'still pending after the reload');
    const second = await mount({ open: '' }, namespace);
    await waitFor(() => bubbleTexts(second.el, 'message-bot').includes('Done, slowly.'), 'the reply after the reload', 10_000);
    equal(recording.attempts.length, 2, 'resent after the reload');
    equal(recording.attempts[0]!.key, recording.attempts[1]!.key, 'with the same key');
    const upstream = await upstreamOf(namespace);
    equal(upstream.filter((m) => m.text === 'slow question').length, 1, 'stored once');
    equal(bubbleTexts(second.el, 'message-user').filter((t) => t === 'slow question').length, 1, 'shown once');
  });

  it('sends entries found after a reload in the order written, each with the key stored with it', async () => {
    recording = recordSends();
    const namespace = freshNamespace();
    const base = absoluteEndpoint(namespace);
    const now = Date.now();
    // Written as a previous page left them: stored out of order, one without a key (an older widget).
    const entries = [
      { localId: `local-${(now + 2).toString(36).padStart(9, '0')}-00-cccccc`, key: 'key-third_0123456789abcd', content: 'third' },
      { localId: `local-${now.toString(36).padStart(9, '0')}-00-aaaaaa`, key: 'key-first_0123456789abcd', content: 'first' },
      { localId: `local-${(now + 1).toString(36).padStart(9, '0')}-00-bbbbbb`, content: 'second' },
    ];
    for (const e of entries) {
      await idbSet(
        `outbox|${base}|${e.localId}`,
        { ...e, createdAt: new Date(now).toISOString(), state: 'pending', attempts: 0 },
        idbStore,
      );
    }
    const { el } = await mount({ open: '' }, namespace);
    await waitForReplies(el, 3);
    equal(recording.attempts.map((a) => a.content).join('|'), 'first|second|third', 'in the order written');
    equal(recording.attempts[0]!.key, 'key-first_0123456789abcd', 'the stored key');
    equal(recording.attempts[2]!.key, 'key-third_0123456789abcd', 'the stored key');
    assert(KEY.test(recording.attempts[1]!.key ?? ''), 'a key given to the entry that had none');
    const upstream = await upstreamOf(namespace);
    equal(
      upstream
        .filter((m) => m.senderType === 'User')
        .map((m) => m.text)
        .join('|'),
      'first|second|third',
      'stored once each, in order',
    );
  });

  it('says "too long" for a 413 (a body over the handler’s limit), as a refusal the visitor must fix', async () => {
    const { el } = await mount({ open: '', attachments: '' });
    const errors: ChatbotErrorDetail[] = [];
    el.addEventListener('chatbot-error', (e) => errors.push(e.detail));
    await el.send('with a huge attachment', `https://example.com/${'a'.repeat(20_000)}`);
    await waitFor(() => part(el, 'message-failed'), 'the refused send');
    equal(errors[0]?.status, 413);
    equal(errors[0]?.kind, 'rejected');
    equal(errors[0]?.message, defaultStrings.errorTooLong);
    equal(part(el, 'error')!.querySelector('span')!.textContent, defaultStrings.errorTooLong, 'the error part says it');
  });
});
