// reset() when the code that revokes a token cannot be fetched (every fetch of it fails on this
// page, as offline before the first reset: web-test-runner.config.mjs, which is why this test has
// a file of its own): the visitor is forgotten here all the same, and the token is kept aside, as
// when the handler cannot be reached, for a later connection to revoke.
import { executeServerCommand } from '@web/test-runner-commands';
import {
  absoluteEndpoint,
  endpointOf,
  equal,
  freshNamespace,
  idbGet,
  idbStore,
  mount,
  parts,
  quietFor,
  storedIdentity,
  unmountAll,
  waitForReplies,
} from '../helpers/browser/helpers.js';

before(() => executeServerCommand('fail-revocation-code'));
afterEach(() => unmountAll());

/** The handler's answer to a read made with a given visitor token. */
async function statusWithToken(namespace: string, token: string) {
  const response = await fetch(`${endpointOf(namespace)}/sessions?page=1&pageSize=1`, { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
}

describe('<chatbot-widget> reset(), when the revocation code fails to load', () => {
  it('forgets the visitor here, keeps the token aside, and a later connection leaves it waiting without an error', async () => {
    const namespace = freshNamespace();
    const errors: Event[] = [];
    const rejections: unknown[] = [];
    const onRejection = (event: PromiseRejectionEvent) => rejections.push(event.reason);
    window.addEventListener('unhandledrejection', onRejection);
    const first = await mount({ open: '' }, namespace);
    first.el.addEventListener('chatbot-error', (event) => errors.push(event));
    await first.el.send('forget me');
    await waitForReplies(first.el, 1);
    const before = (await storedIdentity(namespace))!;

    await first.el.reset();
    equal(await storedIdentity(namespace), undefined, 'forgotten locally although not revoked');
    equal(parts(first.el, 'message').length, 0, 'nothing shown');
    const waitingKey = `revoke|${absoluteEndpoint(namespace)}`;
    equal(JSON.stringify(await idbGet(waitingKey, idbStore)), JSON.stringify([before.token]), 'the token kept aside');
    equal(await statusWithToken(namespace, before.token), 200, 'still valid at the handler');

    unmountAll();
    const second = await mount({ open: '' }, namespace);
    second.el.addEventListener('chatbot-error', (event) => errors.push(event));
    await quietFor(300);
    equal(
      JSON.stringify(await idbGet(waitingKey, idbStore)),
      JSON.stringify([before.token]),
      'still waiting: the code could not be fetched',
    );
    equal(errors.length, 0, 'nothing to tell the visitor');
    window.removeEventListener('unhandledrejection', onRejection);
    equal(rejections.map(String).join('; '), '', 'no failure left unhandled');
  });
});
