// The outbox in memory against reads of it from IndexedDB that began before a change: after a
// reload the widget reads the outbox together with the cached history, which takes a while, and
// a Retry clicked (or a send written) meanwhile must survive that read. The orderings are made
// here step by step, on the real outbox in IndexedDB; the sender has no connection, so nothing is
// sent, and the element it would draw on is left out (only its storage calls are exercised).
import { Outbox, newIdempotencyKey, type OutboxEntry } from '../../src/chatbot-widget/conversation/outbox.js';
import { OutboxSender } from '../../src/chatbot-widget/conversation/outbox-sender.js';
import { openStorage } from '../../src/chatbot-widget/io/storage.js';
import type { Connection } from '../../src/chatbot-widget/identity/connection.js';
import type { ControllerContext } from '../../src/chatbot-widget/conversation/controller-context.js';
import { equal, freshNamespace } from '../helpers/browser/helpers.js';

/**
 * A sender over a fresh outbox holding one message that failed offline (or is `pending`), as a
 * reload finds it. `connected`: the sender has a connection to send on, whose visitor is never
 * asked to call (only its base, which names the lock); without one, nothing is sent.
 */
async function senderWithMessage(state: OutboxEntry['state'] = 'failed', connected = false) {
  const base = `https://example.test/${freshNamespace('reads')}`;
  const outbox = new Outbox(openStorage());
  outbox.use(base);
  const entry: OutboxEntry = {
    localId: 'local-1',
    key: newIdempotencyKey(),
    content: 'sent while offline',
    createdAt: new Date().toISOString(),
    state,
    attempts: 1,
    ...(state === 'failed' ? { error: { kind: 'offline' as const, status: 0, detail: 'offline' } } : {}),
  };
  await outbox.put(entry);
  const context = { host: { requestUpdate() {} }, fail() {}, changed() {} } as unknown as ControllerContext;
  const sender = new OutboxSender(outbox, context, () => undefined);
  if (connected) sender.use({ signal: new AbortController().signal, visitor: { base } } as unknown as Connection);
  sender.adopt(await sender.read());
  return { outbox, sender, entry };
}

const states = (sender: OutboxSender) => sender.entries.map((e) => `${e.localId}:${e.state}`).join(' ');

describe('the outbox against reads that began before a change', () => {
  it('a Retry is not undone by a read that began before it', async () => {
    const { outbox, sender } = await senderWithMessage();
    const before = await sender.read();
    equal(before.entries[0]?.state, 'failed', 'the read saw it failed');
    await sender.retry('local-1');
    equal((await outbox.get('local-1'))?.state, 'pending', 'stored as pending');
    sender.adopt(before);
    equal(states(sender), 'local-1:pending', 'still pending in memory, as stored');
  });

  it('a read that began after the Retry was written is taken as it is', async () => {
    const { sender } = await senderWithMessage();
    await sender.retry('local-1');
    const after = await sender.read();
    equal(after.entries[0]?.state, 'pending');
    sender.adopt({ ...after, entries: [] }); // another tab confirmed and removed it since
    equal(states(sender), '', 'gone, as the read says');
  });

  it('a read begun before another tab marked the message failed does not bring it back as pending', async () => {
    const { outbox, sender, entry } = await senderWithMessage('pending', true);
    const before = await sender.read();
    await outbox.put({ ...entry, state: 'failed', error: { kind: 'server', status: 500, detail: 'in the other tab' } });
    // This tab's turn to send it: its pump finds the message failed in storage, shows it so and
    // sends nothing (the visitor would throw if it were asked).
    await sender.pump();
    equal(states(sender), 'local-1:failed');
    sender.adopt(before);
    equal(states(sender), 'local-1:failed', 'not pending again with nothing sending it');
  });
});
