// Sending and receiving through the real handler and emulator: the visitor's message shows at
// once, the reply arrives, the keyboard behaves, events fire with typed details.
import type { ChatbotErrorDetail, ChatbotReplyDetail, ChatbotSendDetail } from '../../src/browser/index.js';
import { strings as defaultStrings } from '../../src/ui/locales/en.js';
import {
  assert,
  bubbleTexts,
  equal,
  errorText,
  mount,
  part,
  parts,
  quietFor,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

describe('<chatbot-widget> chat', () => {
  it('shows the message at once as pending, a typing indicator, then the reply', async () => {
    const { el } = await mount({ open: '' });
    await typeAndSend(el, 'slow question');
    const pending = await waitFor(() => part(el, 'message-pending'), 'a pending bubble', 1_000);
    assert(pending.textContent!.includes('slow question'));
    assert(part(el, 'message-user'), 'the pending bubble is the visitor’s');
    await waitFor(() => part(el, 'typing'), 'the typing indicator', 2_000);
    await waitForReplies(el, 1);
    equal(part(el, 'typing'), null, 'typing indicator gone');
    assert(bubbleTexts(el, 'message-bot')[0]!.includes('Done, slowly.'), 'reply shown');
    equal(parts(el, 'message-pending').length, 0);
    assert(
      parts(el, 'message').every((m) => m.querySelector('time[datetime]')),
      'every bubble has its time',
    );
  });

  it('fires chatbot-send and chatbot-reply with typed details, bubbling out of the shadow root', async () => {
    const sent: ChatbotSendDetail[] = [];
    const replies: ChatbotReplyDetail[] = [];
    const onSend = (e: CustomEvent<ChatbotSendDetail>) => sent.push(e.detail);
    const onReply = (e: CustomEvent<ChatbotReplyDetail>) => replies.push(e.detail);
    document.addEventListener('chatbot-send', onSend);
    document.addEventListener('chatbot-reply', onReply);
    try {
      const { el } = await mount({ open: '' });
      const localId = await el.send('hello events');
      assert(localId, 'send() resolves to a local id');
      await waitFor(() => replies.length === 1, 'chatbot-reply');
      equal(sent[0]!.text, 'hello events');
      equal(sent[0]!.localId, localId);
      equal(replies[0]!.text, 'You said: hello events');
      equal(replies[0]!.localId, localId);
    } finally {
      document.removeEventListener('chatbot-send', onSend);
      document.removeEventListener('chatbot-reply', onReply);
    }
  });

  it('drops a message whose chatbot-send event is cancelled', async () => {
    const { el } = await mount({ open: '' });
    el.addEventListener('chatbot-send', (e) => e.preventDefault(), { once: true });
    equal(await el.send('never sent'), undefined);
    await el.updateComplete;
    equal(parts(el, 'message').length, 0);
  });

  it('Enter sends, Shift+Enter does not, the field is cleared and keeps focus, Send is disabled while empty', async () => {
    const { el } = await mount({ open: '' });
    const input = part(el, 'input') as HTMLTextAreaElement;
    const button = part(el, 'send-button') as HTMLButtonElement;
    assert(button.disabled, 'Send disabled while empty');
    input.focus();
    input.value = 'line one';
    input.dispatchEvent(new InputEvent('input'));
    await el.updateComplete;
    assert(!button.disabled, 'Send enabled with text');
    const shiftEnter = new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, cancelable: true });
    input.dispatchEvent(shiftEnter);
    assert(!shiftEnter.defaultPrevented, 'Shift+Enter keeps its default (a new line)');
    equal(parts(el, 'message').length, 0, 'nothing sent on Shift+Enter');
    input.value = '   ';
    input.dispatchEvent(new InputEvent('input'));
    await el.updateComplete;
    assert(button.disabled, 'whitespace only is empty');
    await typeAndSend(el, 'sent with Enter');
    equal(input.value, '', 'field cleared');
    equal(el.shadowRoot!.activeElement, input, 'field keeps focus');
    assert(button.disabled);
    await waitForReplies(el, 1);
    equal(bubbleTexts(el, 'message-user')[0], 'sent with Enter');
  });

  it('keeps following the newest message when a scroll event comes between a message joining the conversation and its drawing', async () => {
    const { el } = await mount({ open: '' });
    const list = part(el, 'messages')!;
    const lines = (text: string) => Array.from({ length: 6 }, (_, i) => `${text}, line ${i + 1}`).join('\n\n');
    await el.send(lines('first'));
    await waitForReplies(el, 1);
    // On a busy page the browser can deliver the list's scroll event (of the widget's own scroll to
    // the end) after a message joined the conversation and before the redraw that draws it: here,
    // before each redraw the widget asks for.
    const requestUpdate = el.requestUpdate.bind(el);
    let inside = false;
    el.requestUpdate = ((...args: Parameters<typeof el.requestUpdate>) => {
      if (!inside) {
        inside = true;
        list.dispatchEvent(new Event('scroll'));
        inside = false;
      }
      return requestUpdate(...args);
    }) as typeof el.requestUpdate;
    try {
      for (const [i, text] of ['second', 'third'].entries()) {
        await el.send(lines(text));
        await waitForReplies(el, i + 2);
        await el.updateComplete;
        assert(list.scrollHeight > list.clientHeight * 1.5, 'the conversation is taller than the list');
        await waitFor(() => list.scrollHeight - list.scrollTop - list.clientHeight < 4, `the list at its end after "${text}"`);
      }
    } finally {
      delete (el as { requestUpdate?: unknown }).requestUpdate; // the element's own again
    }
  });

  it('shows a new reply taller than the list from its start, keeps it there on redraws, and follows a short one to the end', async () => {
    const { el } = await mount({ open: '' });
    const list = part(el, 'messages')!;
    const long = Array.from({ length: 50 }, (_, i) => `Line ${i + 1} of a long question.`).join('\n\n');
    await el.send(long);
    await waitForReplies(el, 1);
    await el.updateComplete;
    const reply = part(el, 'message-bot')!;
    assert(reply.offsetHeight > list.clientHeight, `a reply taller than the list (${reply.offsetHeight} of ${list.clientHeight} px)`);
    const fromTop = () => reply.offsetTop - list.scrollTop;
    assert(Math.abs(fromTop()) <= 2, `the reply's start at the top of the list (${fromTop()} px off)`);
    // Redrawn meanwhile (the conversation refreshed, the minute changed): it stays where it is read.
    el.requestUpdate();
    await el.updateComplete;
    await quietFor(300);
    assert(Math.abs(fromTop()) <= 2, `still at its start after redraws (${fromTop()} px off)`);
    // The visitor asks again: the list follows their message and the short reply to the end.
    await el.send('short');
    await waitForReplies(el, 2);
    await waitFor(() => list.scrollHeight - list.scrollTop - list.clientHeight < 4, 'the list at its end').catch((error: Error) => {
      throw new Error(
        `${error.message}: scrollTop ${list.scrollTop}, scrollHeight ${list.scrollHeight}, clientHeight ${list.clientHeight}, last ${parts(el, 'message').at(-1)?.getAttribute('part')} ${parts(el, 'message').at(-1)?.offsetHeight}px, bubbles ${bubbleTexts(
          el,
        )
          .map((t) => t.slice(0, 12))
          .join(' | ')}`,
      );
    });
  });

  it('renders replies as safe Markdown: formatting and http/mailto links only, HTML never runs', async () => {
    const { el } = await mount({ open: '' });
    await el.send('markdown-sample');
    await waitForReplies(el, 1);
    const bubble = part(el, 'message-bot')!.querySelector('.bubble')!;
    assert(bubble.querySelector('strong')?.textContent === 'bold');
    assert(bubble.querySelector('em')?.textContent === 'italic');
    equal(bubble.querySelector('p code')?.textContent, 'inline <b>code</b>');
    equal(bubble.querySelectorAll('ul li').length, 2);
    equal(bubble.querySelectorAll('ol li').length, 2);
    equal(bubble.querySelector('pre code')?.textContent, 'const x = 1 < 2;');
    const links = [...bubble.querySelectorAll('a')];
    equal(links.map((a) => a.getAttribute('href')).join(' '), 'https://example.com/docs mailto:help@example.com');
    for (const a of links) {
      equal(a.getAttribute('target'), '_blank');
      equal(a.getAttribute('rel'), 'noopener noreferrer');
    }
    equal(bubble.querySelectorAll('img, script, b').length, 0, 'no element from raw HTML');
    assert(bubble.textContent!.includes('<img src="x" onerror="window.__pwned=1">'), 'raw HTML shown as text');
    assert(bubble.textContent!.includes('this') && bubble.textContent!.includes('that'), 'unsafe links keep their text');
    await quietFor(100);
    equal((window as unknown as { __pwned?: number }).__pwned, undefined, 'nothing ran');
  });

  it('sends an attachment URL when the host enables attachments, and refuses non-http links', async () => {
    const { el } = await mount({ open: '', attachments: '' });
    const errors: ChatbotErrorDetail[] = [];
    (part(el, 'attach-button') as HTMLButtonElement).click();
    await el.updateComplete;
    const url = part(el, 'attachment-input') as HTMLInputElement;
    url.value = 'javascript:alert(1)';
    url.dispatchEvent(new InputEvent('input'));
    await typeAndSend(el, 'with a file');
    equal(errorText(el), defaultStrings.attachmentInvalid, 'says the link must be http(s)');
    equal(parts(el, 'message').length, 0);
    url.value = 'https://example.com/file.pdf';
    url.dispatchEvent(new InputEvent('input'));
    await typeAndSend(el, 'with a file');
    await waitForReplies(el, 1);
    const link = part(el, 'message-user')!.querySelector('a')!;
    equal(link.getAttribute('href'), 'https://example.com/file.pdf');
    equal(errors.length, 0);
  });
});
