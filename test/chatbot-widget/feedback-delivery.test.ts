// Ratings reach the site owner: each thumbs up or down (and each rating taken back) goes to the
// real handler's POST …/feedback, and its admin listing shows it. Given offline, a rating waits
// in IndexedDB and is delivered once the browser is back online, or by the next load: the latest
// choice only, whichever tab made it. A refusal (404: not the visitor's message) is final.
import {
  absoluteEndpoint,
  browserOnline,
  equal,
  freshNamespace,
  idbSet,
  idbStore,
  mount,
  network,
  part,
  quietFor,
  storedIdentity,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';
import { keptRatings, listedRatings, recordRatingPosts } from '../helpers/browser/ratings.js';

let recording: ReturnType<typeof recordRatingPosts> | undefined;
afterEach(() => {
  browserOnline(true);
  recording?.stop();
  recording = undefined;
  unmountAll();
});

/** A widget on a namespace with a handler of its own, with one answered question. */
async function answered(namespace = freshNamespace('rated')) {
  const { el } = await mount({ open: '', mode: 'inline' }, namespace);
  await el.send('rate this answer');
  await waitForReplies(el, 1);
  return { el, namespace, messageId: part(el, 'message-bot')!.dataset.key! };
}

/**
 * The widget's conversation is connected: on a namespace already used, the first bubbles are the
 * snapshot of the last visit, a picture whose buttons do nothing.
 */
const connected = (el: HTMLElement) =>
  waitFor(() => (el as unknown as { panel?: { chat: { ready: boolean } } }).panel?.chat.ready, 'connected');

const listing = async (namespace: string) =>
  JSON.stringify((await listedRatings(namespace)).map(({ messageId, value, comment }) => ({ messageId, value, comment })));

/**
 * Holds back the conversation's refresh (`GET …/messages`) until `release()`, and passes each
 * answer to `POST …/message` through `edit` first: a handler that names less of what it stored.
 * `original` is the fetch to put back.
 */
function holdRefreshAndEditSendAnswers(edit: (body: { stored?: unknown[] }) => void) {
  const original = window.fetch;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  window.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
    if (url.pathname.endsWith('/chatbot/messages')) await held;
    const response = await original(input, init);
    if (init?.method !== 'POST' || !url.pathname.endsWith('/chatbot/message') || !response.ok) return response;
    const body = await response.json();
    edit(body);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  return { release: () => release(), original };
}

describe('<chatbot-widget> ratings reach the handler', () => {
  it('sends a rating, a switch and a take-back: the admin listing follows each', async () => {
    const { el, namespace, messageId } = await answered();
    const { userId } = (await storedIdentity(namespace))!;
    part(el, 'feedback-up')!.click();
    await waitFor(async () => (await listing(namespace)) === JSON.stringify([{ messageId, value: 'up', comment: null }]), 'up listed');
    const [item] = await listedRatings(namespace);
    equal(item!.chatUserId, userId, 'listed as the visitor’s');
    part(el, 'feedback-down')!.click();
    await waitFor(async () => (await listing(namespace)) === JSON.stringify([{ messageId, value: 'down', comment: null }]), 'switched');
    part(el, 'feedback-down')!.click();
    await waitFor(async () => (await listing(namespace)) === '[]', 'taking it back removes it');
    // Once the handler has the take-back there is nothing left to keep for that message.
    await waitFor(async () => (await keptRatings(namespace)).length === 0, 'the delivered take-back is deleted');
  });

  it('delivers a rating given offline once back online: exactly once, the latest value', async () => {
    const { el, namespace, messageId } = await answered();
    recording = recordRatingPosts();
    // Offline as the browser reports it: the rating waits for the browser to say it is back.
    await network(namespace, 'down');
    browserOnline(false);
    part(el, 'feedback-up')!.click();
    const failed = (value: string) => recording!.posts.some((p) => p.body.value === value && p.done && p.status === 0);
    await waitFor(() => failed('up'), 'the first try fails');
    part(el, 'feedback-down')!.click(); // changed their mind, still offline
    await waitFor(() => failed('down'), 'the try of the latest choice fails too');
    equal((await keptRatings(namespace))[0]?.delivered, false, 'waiting');

    await network(namespace, 'up');
    browserOnline(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(async () => (await keptRatings(namespace))[0]?.delivered === true, 'delivered');
    equal(await listing(namespace), JSON.stringify([{ messageId, value: 'down', comment: null }]), 'listed once, the latest value');
    const answered204 = recording.posts.filter((p) => p.status === 204);
    equal(answered204.at(-1)?.body.value, 'down', 'the last value the handler took is the latest choice');
  });

  it('delivers what waited when the widget loads again, and a newer choice in another tab wins', async () => {
    const { el, namespace, messageId } = await answered();
    await network(namespace, 'down');
    part(el, 'feedback-up')!.click();
    await waitFor(async () => (await keptRatings(namespace))[0]?.value === 'up', 'kept offline');
    unmountAll(); // the page is left before the handler could be reached
    await network(namespace, 'up');
    const reloaded = await mount({ open: '', mode: 'inline' }, namespace);
    await waitForReplies(reloaded.el, 1);
    await connected(reloaded.el);
    await waitFor(
      async () => (await listing(namespace)) === JSON.stringify([{ messageId, value: 'up', comment: null }]),
      'sent by the reload',
    );

    const other = await mount({ open: '', mode: 'inline' }, namespace);
    await waitForReplies(other.el, 1);
    await connected(other.el);
    await waitFor(() => part(other.el, 'feedback-up')!.getAttribute('aria-pressed') === 'true', 'the other tab shows it');
    part(other.el, 'feedback-down')!.click();
    await waitFor(
      async () => (await listing(namespace)) === JSON.stringify([{ messageId, value: 'down', comment: null }]),
      'the newer choice wins',
    );
    await waitFor(() => part(reloaded.el, 'feedback-down')!.getAttribute('aria-pressed') === 'true', 'and the first tab shows it');
  });

  it('takes a 404 as final: a rating of a message that is not the visitor’s is sent once, then left', async () => {
    const { namespace } = await answered();
    const { userId } = (await storedIdentity(namespace))!;
    unmountAll();
    // A rating kept for a message this visitor never got (another visitor's, or one upstream no longer holds).
    const key = `feedback|${absoluteEndpoint(namespace)}|${userId}|not-a-message-of-theirs`;
    await idbSet(key, { messageId: 'not-a-message-of-theirs', value: 'up', choice: 'c1', delivered: false }, idbStore);
    recording = recordRatingPosts();
    await mount({ open: '', mode: 'inline' }, namespace);
    await waitFor(async () => (await keptRatings(namespace)).find((r) => r.messageId === 'not-a-message-of-theirs')?.delivered, 'given up');
    equal(JSON.stringify(recording.posts.map((p) => p.status)), '[404]', 'one attempt, refused');
    // Back online and loaded again, the visitor rates their own answer: only that one goes.
    window.dispatchEvent(new Event('online'));
    const again = await mount({ open: '', mode: 'inline' }, namespace);
    await waitForReplies(again.el, 1);
    await connected(again.el);
    part(again.el, 'feedback-up')!.click();
    const own = part(again.el, 'message-bot')!.dataset.key!;
    await waitFor(async () => (await keptRatings(namespace)).find((r) => r.messageId === own)?.delivered, 'the own rating delivered');
    equal(
      JSON.stringify(recording.posts.map((p) => [p.body.messageId === own ? 'own' : 'refused', p.status])),
      '[["refused",404],["own",204]]',
    );
  });
  it('keeps a rating given on a reply before its server id is known, and sends it with that id', async () => {
    const namespace = freshNamespace('rated');
    const { el } = await mount({ open: '', mode: 'inline' }, namespace);
    await connected(el);
    // A handler that names the question it stored but not the reply, and a conversation whose
    // refresh is held back: the reply shows under its temporary id meanwhile.
    const { release, original } = holdRefreshAndEditSendAnswers((body) => (body.stored = body.stored?.slice(0, 1)));
    try {
      await el.send('rate me early');
      await waitFor(() => part(el, 'message-bot')?.dataset.key?.endsWith('-reply'), 'the reply under its temporary id');
      part(el, 'feedback-up')!.click();
      await quietFor(300);
      equal(await listing(namespace), '[]', 'not sent under the temporary id');
      release();
      await waitFor(() => !part(el, 'message-bot')!.dataset.key!.endsWith('-reply'), 'the reply by its server id');
    } finally {
      window.fetch = original;
    }
    const messageId = part(el, 'message-bot')!.dataset.key!;
    await waitFor(async () => (await listing(namespace)) === JSON.stringify([{ messageId, value: 'up', comment: null }]), 'listed');
    equal(part(el, 'feedback-up')!.getAttribute('aria-pressed'), 'true', 'still shown as rated');
  });
  it('offers no thumbs on a reply whose server id cannot be learned (a handler naming nothing it stored) until its server copy shows', async () => {
    const namespace = freshNamespace('rated');
    const { el } = await mount({ open: '', mode: 'inline' }, namespace);
    await connected(el);
    const { release, original } = holdRefreshAndEditSendAnswers((body) => delete body.stored);
    try {
      await el.send('no ids');
      await waitFor(() => part(el, 'message-bot')?.dataset.key?.endsWith('-reply'), 'the reply under its temporary id');
      equal(part(el, 'feedback-up'), null, 'no thumbs a rating could not be kept for');
      release();
      await waitFor(() => !part(el, 'message-bot')!.dataset.key!.endsWith('-reply'), 'the reply by its server id');
      await waitFor(() => part(el, 'feedback-up'), 'thumbs on the server copy');
    } finally {
      window.fetch = original;
    }
  });
});
