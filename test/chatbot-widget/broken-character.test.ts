// A message holding half of an emoji (a lone UTF-16 surrogate) cannot be stored as written: the
// widget says so in the visitor's language and sends nothing, whether it was typed or sent from
// the page's script. Through the real handler and emulator, in real Chromium.
import { strings as de } from '../../src/ui/locales/de.js';
import { strings as en } from '../../src/ui/locales/en.js';
import {
  assert,
  bubbleTexts,
  equal,
  errorText,
  freshNamespace,
  mount,
  part,
  parts,
  recordSends,
  storedOutbox,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

/** "Hallo 😀" with the emoji's second half cut off. */
const BROKEN = 'Hallo \uD83D';

describe('<chatbot-widget> broken characters', () => {
  it('the composer refuses a message with half an emoji, in the visitor’s language: nothing sent, nothing queued, the text kept', async () => {
    const sends = recordSends();
    try {
      const namespace = freshNamespace();
      const { el } = await mount({ open: '', lang: 'de' }, namespace);
      await waitFor(() => part(el, 'send-button')?.textContent?.trim() === de.send, 'the panel in German');
      await typeAndSend(el, BROKEN);
      await waitFor(() => part(el, 'error'), 'the error part');
      equal(errorText(el), de.brokenCharacter, 'says what is wrong, in German');
      equal((part(el, 'input') as HTMLTextAreaElement).value, BROKEN, 'what was typed stays, to be fixed');
      equal(parts(el, 'message').length, 0, 'no bubble');
      equal(sends.attempts.length, 0, 'no request to /message');
      equal((await storedOutbox(namespace)).length, 0, 'not in the outbox');

      // Fixed, it goes: the words go as soon as the visitor edits.
      await typeAndSend(el, 'Hallo 😀');
      equal(part(el, 'error'), null, 'the refusal is gone');
      await waitForReplies(el, 1);
      assert(bubbleTexts(el, 'message-user')[0]!.endsWith('Hallo 😀'), 'the visitor’s bubble');
      equal(sends.attempts.length, 1);
      equal(sends.attempts[0]!.content, 'Hallo 😀', 'a whole emoji is sent as it is');
    } finally {
      sends.stop();
    }
  });

  it('send() from the page refuses it the same way and resolves to undefined', async () => {
    const sends = recordSends();
    try {
      const namespace = freshNamespace();
      const { el } = await mount({ open: '' }, namespace);
      equal(await el.send('broken \uDC00 tail'), undefined);
      await el.updateComplete;
      equal(errorText(el), en.brokenCharacter, 'says what is wrong');
      equal(parts(el, 'message').length, 0);
      equal(sends.attempts.length, 0, 'no request to /message');
      equal((await storedOutbox(namespace)).length, 0, 'not in the outbox');
      assert(await el.send('whole again'), 'a well-formed message is queued');
      await waitForReplies(el, 1);
    } finally {
      sends.stop();
    }
  });
});
