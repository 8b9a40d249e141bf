// Nothing lost, nothing doubled: failed sends stay in the outbox (IndexedDB) with a Retry
// button, survive a reload, and a resend carries the message's idempotency key, so one whose
// first try arrived is not stored twice. Network faults come from the backend's fault switch (test/helpers/browser/backend.ts).
import type { ChatbotErrorDetail } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import {
  absoluteEndpoint,
  assert,
  browserOnline,
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
  storedIdentity,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

afterEach(() => {
  unmountAll();
  browserOnline(true);
});

describe('<chatbot-widget> outbox', () => {
  it('shows an offline send as failed, in words, keeps it across a reload, and sends it on Retry', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('hello first');
    await waitForReplies(first.el, 1);
    const errors: ChatbotErrorDetail[] = [];
    first.el.addEventListener('chatbot-error', (e) => errors.push(e.detail));

    await network(namespace, 'down');
    browserOnline(false);
    await first.el.send('sent while offline');
    const failed = await waitFor(() => part(first.el, 'message-failed'), 'a failed bubble');
    assert(failed.textContent!.includes('sent while offline'));
    assert(part(first.el, 'retry-button'), 'a Retry button');
    assert(/offline/i.test(part(first.el, 'error')!.textContent!), 'the error part says it in words');
    equal(errors[0]?.kind, 'offline');

    // A reload: a new widget on the same endpoint finds the failed message in the outbox.
    unmountAll();
    const second = await mount({ open: '' }, namespace);
    const restored = await waitFor(() => part(second.el, 'message-failed'), 'the failed bubble after reload');
    assert(restored.textContent!.includes('sent while offline'));

    await network(namespace, 'up');
    browserOnline(true);
    (part(second.el, 'retry-button') as HTMLButtonElement).click();
    await waitFor(() => !part(second.el, 'message-failed') && !part(second.el, 'message-pending'), 'the retried send');
    await waitFor(() => bubbleTexts(second.el, 'message-bot').includes('You said: sent while offline'), 'its reply');
    const identity = (await storedIdentity(namespace))!;
    const upstream = await upstreamMessages(identity.userId);
    equal(upstream.filter((m) => m.text === 'sent while offline').length, 1, 'stored once upstream');
  });

  it('does not send twice a message that reached the server although its answer was lost', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await el.send('warm up');
    await waitForReplies(el, 1);

    await network(namespace, 'drop');
    await el.send('answer lost');
    const errors: ChatbotErrorDetail[] = [];
    el.addEventListener('chatbot-error', (e) => errors.push(e.detail));
    await waitFor(() => part(el, 'message-failed'), 'the failed bubble');
    // The browser is online: the service could not be reached (not "you are offline").
    equal(errors[0]?.kind, 'unreachable', 'a lost answer reads as a lost connection to the service');
    await network(namespace, 'up');
    (part(el, 'retry-button') as HTMLButtonElement).click();
    await waitFor(() => !part(el, 'message-failed') && !part(el, 'message-pending'), 'the retry to settle');
    await waitFor(() => bubbleTexts(el, 'message-bot').includes('You said: answer lost'), 'the reply from the server copy');

    const identity = (await storedIdentity(namespace))!;
    const upstream = await upstreamMessages(identity.userId);
    equal(upstream.filter((m) => m.text === 'answer lost').length, 1, 'not resent');
    equal(bubbleTexts(el, 'message-user').filter((t) => t === 'answer lost').length, 1, 'shown once');
  });

  it('tells the visitor when to try again after a 429 and keeps Retry disabled until then', async () => {
    const { el } = await mount({ open: '' }, freshNamespace('limited'));
    const errors: ChatbotErrorDetail[] = [];
    el.addEventListener('chatbot-error', (e) => errors.push(e.detail));
    await el.send('one');
    await waitForReplies(el, 1);
    await el.send('two');
    await waitForReplies(el, 2);
    // The minute's sends are spent, not the day's: the input is not held with "No messages left
    // today" (its rate headers say 0 left until the minute ends), nor is a notice shown.
    equal((part(el, 'input') as HTMLTextAreaElement).placeholder, 'Type a message…', 'the input as usual');
    equal(part(el, 'quota-notice'), null, 'no quota notice for a minute');
    await el.send('three');
    await waitFor(() => part(el, 'message-failed'), 'the refused send');
    equal(errors[0]?.kind, 'rate-limited');
    assert((errors[0]?.retryAfter ?? 0) > 0, 'Retry-After read');
    assert(new RegExp(`${errors[0]!.retryAfter} seconds`).test(part(el, 'error')!.textContent!), 'the wait is said in words');
    assert((part(el, 'retry-button') as HTMLButtonElement).disabled, 'Retry waits');
    equal(parts(el, 'message-user').length, 3, 'the refused message stays visible');
  });

  it('says when few sends are left today, from the handler’s rate headers', async () => {
    const { el } = await mount({ open: '' }, freshNamespace('daily')); // 5 sends a day
    equal(part(el, 'quota-notice'), null, 'nothing said before the handler said anything');
    await el.send('one');
    await waitForReplies(el, 1);
    equal(part(el, 'quota-notice'), null, '4 left: not yet few');
    await el.send('two');
    await waitForReplies(el, 2);
    const notice = await waitFor(() => part(el, 'quota-notice'), 'the notice');
    assert(
      /^3 messages left today; more at \S.*\.$/.test(notice.textContent ?? ''),
      `the notice says how many and when: ${notice.textContent}`,
    );
    equal(notice.getAttribute('role'), 'status', 'announced politely');
    equal((await axeViolations(el)).join('\n'), '', 'axe finds nothing with the notice shown');
  });

  it('enables Retry by itself when the 429 wait is over, also for a refused message found after a reload', async () => {
    const namespace = freshNamespace();
    const localId = `local-${Date.now().toString(36).padStart(9, '0')}-00-waited`;
    const retryAt = Date.now() + 1_500;
    await idbSet(
      `outbox|${absoluteEndpoint(namespace)}|${localId}`,
      {
        localId,
        key: 'waited-key_0123456789abc',
        content: 'refused for a while',
        createdAt: new Date().toISOString(),
        state: 'failed',
        attempts: 1,
        error: { kind: 'rate-limited', status: 429, detail: '', retryAfter: 2 },
        retryAt,
      },
      idbStore,
    );
    const { el } = await mount({ open: '' }, namespace);
    const retry = () => part(el, 'retry-button') as HTMLButtonElement | null;
    await waitFor(() => retry(), 'the failed bubble with Retry');
    assert(retry()!.disabled, 'Retry waits');
    await waitFor(() => !retry()!.disabled, 'Retry enabled when the wait is over', 4_000);
    assert(Date.now() >= retryAt, 'not before the wait is over');
    retry()!.click();
    await waitFor(() => bubbleTexts(el, 'message-bot').includes('You said: refused for a while'), 'sent on Retry');
  });

  it('resends network failures by itself when the browser is back online, with their keys', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await el.send('warm up');
    await waitForReplies(el, 1);

    // One send reaches the server but its answer is lost; the next finds no connection at all.
    await network(namespace, 'drop');
    await el.send('arrived, answer lost');
    await waitFor(() => part(el, 'message-failed'), 'the first failure');
    await network(namespace, 'down');
    await el.send('written offline');
    await waitFor(() => parts(el, 'message-failed').length === 2, 'both failed');

    await network(namespace, 'up');
    // Without the event nothing is resent behind the visitor's back.
    await quietFor(300);
    equal(parts(el, 'message-failed').length, 2, 'still failed before the browser says it is online');
    assert(part(el, 'error'), 'the error line says so');
    // The browser fires `online` when its connection returns; the fault here is the backend's
    // switch, not the browser's, so the test fires the same event itself.
    window.dispatchEvent(new Event('online'));
    await waitFor(() => !part(el, 'message-failed') && !part(el, 'message-pending'), 'both resent without a click');
    await waitFor(() => bubbleTexts(el, 'message-bot').includes('You said: written offline'), 'the reply to the offline message');
    await waitFor(() => bubbleTexts(el, 'message-bot').includes('You said: arrived, answer lost'), 'the reply found upstream');
    await el.updateComplete;
    equal(part(el, 'error'), null, 'the error line is gone once its message went out');

    const identity = (await storedIdentity(namespace))!;
    const upstream = await upstreamMessages(identity.userId);
    equal(upstream.filter((m) => m.text === 'arrived, answer lost').length, 1, 'the arrived one not sent again');
    equal(upstream.filter((m) => m.text === 'written offline').length, 1, 'the offline one sent once');
    equal(
      upstream
        .filter((m) => m.senderType === 'User')
        .map((m) => m.text)
        .reverse()
        .join('|'),
      'warm up|arrived, answer lost|written offline',
      'in the order written',
    );
  });

  it('leaves refused sends for the visitor when the browser comes back online', async () => {
    const { el } = await mount({ open: '' });
    const errors: ChatbotErrorDetail[] = [];
    el.addEventListener('chatbot-error', (e) => errors.push(e.detail));
    await el.send('x'.repeat(4_001)); // over the handler's 4,000-character limit: a 400
    await waitFor(() => part(el, 'message-failed'), 'the refused send');
    equal(errors[0]?.kind, 'rejected');
    window.dispatchEvent(new Event('online'));
    await quietFor(300);
    assert(part(el, 'message-failed'), 'a refusal is not retried by the online event');
    equal(part(el, 'typing'), null, 'nothing was sent');
    assert(part(el, 'error'), 'its error line stays while the message waits for the visitor');
  });

  it('keeps messages sent in a row in order, each answered once', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await Promise.all([el.send('first'), el.send('second'), el.send('third')]);
    await waitForReplies(el, 3);
    await waitFor(async () => {
      const identity = await storedIdentity(namespace);
      return identity && (await upstreamMessages(identity.userId)).length === 6;
    }, 'six messages upstream');
    // After the revalidation every bubble carries a server id, none is doubled.
    await waitFor(() => parts(el, 'message').every((m) => !m.dataset.key!.startsWith('local-')), 'server ids');
    equal(bubbleTexts(el).join('|'), 'first|You said: first|second|You said: second|third|You said: third');
  });
});
