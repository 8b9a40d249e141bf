// The whole element against an attacker who controls what it shows: bot replies and visitor
// text through the real handler and emulator (its test reply source echoes the visitor), a
// poisoned IndexedDB (cached messages, first lines, outbox), an upstream error text, and the
// host page's attributes and `strings`. Nothing may become markup, load from a third-party host
// or run; see test/helpers/browser/inert-dom.ts for the checks.
import type { ChatbotErrorDetail, ChatbotWidget, WidgetStrings } from '../../src/browser/index.js';
import { format } from '../../src/ui/format-text.js';
import { strings as en } from '../../src/ui/locales/en.js';
import { HOSTILE_ERROR } from '../helpers/browser/hostile-error.js';
import {
  absoluteEndpoint,
  assert,
  equal,
  errorText,
  fakeMessage,
  freshNamespace,
  idbSet,
  idbStore,
  mount,
  network,
  part,
  parts,
  quietFor,
  unmountAll,
  waitFor,
  waitForReplies,
  writeCachedConversation,
} from '../helpers/browser/helpers.js';
import { ACTIVE_ELEMENTS, canary, expectNoThirdPartyRequest, inertProblems, withThirdParty } from '../helpers/browser/inert-dom.js';

afterEach(() => unmountAll());

const IMG = '<img src=x onerror="window.__pwned=1">';

/**
 * An object shaped like a Lit template result whose `strings` array carries the `raw` property
 * Lit checks for; IndexedDB's structured clone keeps it, so a script of the same origin (or a
 * cache written by something else) can store it where the widget expects text.
 */
function forgedTemplate(markup: string) {
  return { _$litType$: 1, strings: Object.assign([markup], { raw: [markup] }), values: [] };
}

/** Every bubble holds only whitelisted Markdown output (the visitor's text: none at all). */
function expectInertBubbles(el: ChatbotWidget) {
  for (const message of parts(el, 'message')) {
    const bubble = message.querySelector('.bubble')!;
    const content = [...bubble.children].filter((child) => !child.classList.contains('sr-only'));
    const user = message.matches('[part~="message-user"]');
    for (const child of content) {
      if (user) {
        // The visitor's text is one plain span; an attachment is a link in a div.
        const ok =
          (child.tagName === 'SPAN' && child.children.length === 0) ||
          (child.tagName === 'DIV' && child.querySelectorAll('*').length === 1 && child.querySelector('a'));
        assert(ok, `visitor bubble holds ${child.outerHTML.slice(0, 120)}`);
        if (child.querySelector('a')) equal(inertProblems(child).join('; '), '');
      } else if (child.classList.contains('code-block')) {
        // The widget's own wrapper of a code block: its bar with the copy button, which holds the
        // widget's icon and none of the reply's text, and the block, inert.
        const [bar, pre, ...rest] = [...child.children];
        equal(rest.length, 0, 'a bar and a code block only');
        const button = bar?.children.length === 1 ? bar.firstElementChild : undefined;
        equal(`${bar?.className} ${button?.getAttribute('part')} ${pre?.tagName}`, 'code-bar code-copy-button PRE');
        equal(button!.textContent!.trim(), '', 'no reply text in the button');
        const wrapper = document.createElement('div');
        wrapper.append(pre!.cloneNode(true));
        equal(inertProblems(wrapper).join('; '), '', `reply ${message.dataset.key}:`);
      } else {
        const wrapper = document.createElement('div');
        wrapper.append(child.cloneNode(true));
        equal(inertProblems(wrapper).join('; '), '', `reply ${message.dataset.key}:`);
      }
    }
  }
  equal(el.shadowRoot!.querySelectorAll(ACTIVE_ELEMENTS).length, 0, 'active elements in the widget');
}

describe('<chatbot-widget> against hostile content', () => {
  it('shows a poisoned cache as text: messages, first lines and outbox, forged template objects included', async () => {
    const namespace = freshNamespace();
    const userId = 'cached-visitor';
    const sessionId = 'cached-session';
    const replies = [
      `${IMG} **bold** [x](javascript:window.__pwned=1) [y](&#106;avascript:window.__pwned=1)`,
      withThirdParty(
        '![tracker](THIRD/__beacon/hc-image) <iframe src="THIRD/__beacon/hc-iframe"></iframe> <style>*{background:url(THIRD/__beacon/hc-style)}</style>',
      ),
      `[https://bank.example/\u202Eelpmaxe.live](https://evil.example/) <svg><script>window.__pwned=1</script></svg>\n\n\`\`\`html\n${IMG}\n\`\`\``,
    ];
    const messages = [
      { ...fakeMessage(0, sessionId, userId), text: `${IMG}<script>window.__pwned=1</script>` },
      ...replies.map((text, i) => ({ ...fakeMessage(2 * i + 1, sessionId, userId), text })),
      { ...fakeMessage(8, sessionId, userId), text: 'see the attachment', url: 'javascript:window.__pwned=1' },
      { ...fakeMessage(9, sessionId, userId), text: forgedTemplate(IMG) },
    ];
    await writeCachedConversation(namespace, messages as ReturnType<typeof fakeMessage>[], userId, sessionId, { firstPaint: true });
    const base = absoluteEndpoint(namespace);
    const session = {
      id: sessionId,
      chatUserId: userId,
      createdAt: messages[0]!.createdAt,
      lastMessageAt: messages.at(-1)!.createdAt,
      messageCount: messages.length,
    };
    const other = { ...session, id: 'other-session', messageCount: 2 };
    await idbSet(`sessions|${base}|${userId}|`, { sessions: [session, other], totalPages: 1, pagesLoaded: 1 }, idbStore);
    await idbSet(`firstlines|${base}|${userId}|`, { [sessionId]: `${IMG} first`, 'other-session': forgedTemplate(IMG) }, idbStore);
    await idbSet(
      `outbox|${base}|local-000000000-00-aaaaaa`,
      {
        localId: 'local-000000000-00-aaaaaa',
        content: forgedTemplate(IMG),
        createdAt: new Date().toISOString(),
        state: 'failed',
        mayHaveArrived: false,
        attempts: 1,
      },
      idbStore,
    );
    await network(namespace, 'down');
    const { el } = await mount({ open: '' }, namespace);
    // The records that are not text (the forged message, the forged outbox entry) are left out.
    await waitFor(() => parts(el, 'message').length === messages.length - 1, 'every usable cached bubble');
    await waitFor(() => el.shadowRoot!.querySelector('[part~="message-bot"] a'), 'the cached replies rendered');
    equal(
      parts(el, 'message')
        .map((m) => m.dataset.key)
        .join(' '),
      'm000000 m000001 m000003 m000005 m000008',
      'the usable records',
    );

    expectInertBubbles(el);
    equal(parts(el, 'code-copy-button').length, 1, 'the cached code block has its copy button');
    const texts = parts(el, 'message').map((m) => m.querySelector('.bubble')!.textContent!);
    assert(texts[0]!.includes(`${IMG}<script>`), 'the visitor’s cached text is shown as typed');
    assert(texts[1]!.includes(IMG), 'the reply’s HTML is shown as text');
    assert(texts[3]!.includes('(evil.example)'), 'the real host of a deceptive link is shown');
    for (const a of el.shadowRoot!.querySelectorAll<HTMLElement>('.bubble a')) {
      equal(getComputedStyle(a).unicodeBidi, 'isolate', 'a link is isolated from overrides around it');
    }
    equal(parts(el, 'message')[4]!.querySelector('a'), null, 'a javascript: attachment is no link');

    (part(el, 'history-button') as HTMLButtonElement).click();
    const lines = await waitFor(() => {
      const found = [...el.shadowRoot!.querySelectorAll('[part="session"] .line')];
      return found.length === 2 ? found : undefined;
    }, 'both cached sessions listed');
    equal(lines[0]!.textContent, `${IMG} first`, 'a first line is text');
    equal(lines[1]!.textContent, '…', 'a first line that is not text is left out');
    lines.forEach((line) => equal(line.children.length, 0, 'no element in a first line'));
    equal(el.shadowRoot!.querySelectorAll(ACTIVE_ELEMENTS).length, 0, 'active elements');

    await expectNoThirdPartyRequest('hc-');
    equal(canary(), undefined, 'window.__pwned');
  });

  it('echoes hostile visitor text through the handler as text, in the bubbles and in the history', async () => {
    const { el } = await mount({ open: '' });
    const payload = withThirdParty(
      `${IMG} <svg onload="window.__pwned=1"></svg> [x](JaVaScRiPt:window.__pwned=1) ![t](THIRD/__beacon/he-image) <iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
    );
    await el.send(payload);
    await waitForReplies(el, 1);
    expectInertBubbles(el);
    equal(part(el, 'message-user')!.querySelector('.plain')!.textContent, payload, 'the visitor sees what they typed');
    const reply = part(el, 'message-bot')!.querySelector('.bubble')!;
    assert(reply.textContent!.includes(`You said: ${IMG}`), 'the reply shows the HTML as text');
    equal([...reply.querySelectorAll('a')].map((a) => a.textContent).join(' '), 't', 'only the image became a link');

    (part(el, 'history-button') as HTMLButtonElement).click();
    const line = await waitFor(() => el.shadowRoot!.querySelector('[part="session"] .line:not(:empty)'), 'the first line of the session');
    await waitFor(() => line.textContent === payload, 'the first line, fetched');
    equal(line.children.length, 0, 'no element in the first line');
    equal(el.shadowRoot!.querySelectorAll(ACTIVE_ELEMENTS).length, 0);

    await expectNoThirdPartyRequest('he-');
    equal(canary(), undefined, 'window.__pwned');
  });

  it('shows an upstream error text made of HTML as text in the error part', async () => {
    const errors: ChatbotErrorDetail[] = [];
    const { el } = await mount({ open: '' }, freshNamespace('hostile'));
    el.addEventListener('chatbot-error', (e) => errors.push((e as CustomEvent<ChatbotErrorDetail>).detail));
    await el.send('hello');
    const error = await waitFor(() => part(el, 'error'), 'the error part');
    equal(errorText(el), format(en.errorRejected, { detail: HOSTILE_ERROR }), 'the text as sent');
    equal(error.querySelectorAll('*').length, 2, 'a text span and the dismiss button, nothing else');
    equal(errors[0]?.kind, 'rejected');
    equal(errors[0]!.message, format(en.errorRejected, { detail: HOSTILE_ERROR }), 'a message was refused: the message could not be sent');
    expectInertBubbles(el);
    await quietFor(50);
    equal(canary(), undefined, 'window.__pwned');
  });

  it('says a refused read of the conversation in the server’s words, as text, and not as a message unsent', async () => {
    const errors: ChatbotErrorDetail[] = [];
    // Heard on the document from before the element is there: the read fails while it connects.
    const listener = (e: Event) => errors.push((e as CustomEvent<ChatbotErrorDetail>).detail);
    document.addEventListener('chatbot-error', listener);
    const { el } = await mount({ open: '' }, freshNamespace('hostile-reads'));
    const error = await waitFor(() => part(el, 'error'), 'the error part');
    equal(errors[0]?.kind, 'rejected');
    equal(errors[0]!.message, format(en.errorLoadRejected, { detail: HOSTILE_ERROR }), 'the conversation could not be loaded');
    equal(errorText(el), errors[0]!.message, 'shown as said');
    equal(error.querySelectorAll('*').length, 2, 'a text span and the dismiss button, nothing else');
    document.removeEventListener('chatbot-error', listener);
    await quietFor(50);
    equal(canary(), undefined, 'window.__pwned');
  });

  it('keeps the host page’s attributes and strings as text, and ignores strings that are not text', async () => {
    const markup = withThirdParty('"><img src="THIRD/__beacon/hs-attr" onerror="window.__pwned=1"><style>*{color:red}</style>');
    const { el } = await mount(
      { open: '', heading: markup, placeholder: markup, theme: markup, side: markup, lang: markup },
      freshNamespace(),
    );
    el.strings = {
      send: markup,
      emptyConversation: `${markup} <b style="background:url(${withThirdParty('THIRD/__beacon/hs-style')})">x</b>`,
      messagesLabel: markup,
      // Not text: from a CMS, say. Must neither render as markup nor break the widget.
      historyHeading: forgedTemplate(IMG) as unknown as string,
      closeChat: null as unknown as string,
    } satisfies Partial<Record<keyof WidgetStrings, string>>;
    await el.updateComplete;
    const root = el.shadowRoot!;
    equal(root.querySelector('h2')!.textContent, markup, 'heading');
    equal(part(el, 'send-button')!.textContent, markup, 'Send label');
    equal((part(el, 'input') as HTMLTextAreaElement).placeholder, markup, 'placeholder');
    equal(part(el, 'messages')!.getAttribute('aria-label'), markup, 'list name');
    const empty = await waitFor(() => root.querySelector('.empty'), 'the empty-conversation note');
    assert(empty.textContent!.startsWith(markup), 'empty note');
    equal(empty.children.length, 0, 'no element in the note');
    equal(root.querySelector('#history-heading')!.textContent, 'Your conversations', 'a non-text override falls back to the default');
    assert(part(el, 'close-button')!.getAttribute('aria-label'), 'a null override falls back to the default');

    // The heading property set to a forged template object by script.
    el.heading = forgedTemplate(IMG) as unknown as string;
    await el.updateComplete;
    equal(root.querySelector('h2')!.textContent, 'Chat with us', 'the default heading');

    equal(root.querySelectorAll(ACTIVE_ELEMENTS).length, 0, 'active elements');
    for (const element of root.querySelectorAll('*')) {
      for (const { name } of element.attributes) assert(!name.startsWith('on'), `${element.tagName} has ${name}`);
      assert(!element.hasAttribute('style') || element.classList.contains('sessions-end'), `${element.tagName} has a style attribute`);
    }
    await expectNoThirdPartyRequest('hs-');
    equal(canary(), undefined, 'window.__pwned');
  });
});
