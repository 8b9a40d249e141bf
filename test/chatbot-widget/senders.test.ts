// Every sender upstream may store, stored through the emulator's seed import beside a real
// conversation: an agent's reply is drawn as a person's (named, plain text, copy but no thumbs),
// a system message as a quiet notice (nothing to copy or rate), a sender the widget does not know
// as the assistant's with its type named for screen readers. The transcript heads each message
// with the same names, and the unread badge counts the assistant's and a person's replies, not
// notices.
import type { ChatbotWidget } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import { recordDownloads } from '../helpers/browser/downloads.js';
import {
  absoluteEndpoint,
  assert,
  equal,
  freshNamespace,
  idbGet,
  idbStore,
  mount,
  part,
  parts,
  seed,
  storedIdentity,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

const AGENT_TEXT = 'Hi, Maria here. **Not bold**, typed by a person.';
const NOTICE_TEXT = 'Maria joined the conversation.';
const OTHER_TEXT = 'Reviewed by the moderation queue.';

/** Stores an agent's reply, a system notice and a message of an unknown sender after the visitor's conversation, upstream. */
async function seedOtherSenders(namespace: string) {
  const { userId } = (await storedIdentity(namespace))!;
  const [newest] = await upstreamMessages(userId);
  const after = (seconds: number) => new Date(Date.now() + seconds * 1_000).toISOString();
  const common = { chatSessionId: newest!.chatSessionId, chatUserId: userId };
  await seed([
    { ...common, id: `${namespace}-notice`, senderType: 'System', text: NOTICE_TEXT, createdAt: after(1) },
    { ...common, id: `${namespace}-agent`, senderType: 'Agent', text: AGENT_TEXT, createdAt: after(2) },
    { ...common, id: `${namespace}-other`, senderType: 'Moderator', text: OTHER_TEXT, createdAt: after(3) },
  ]);
}

const label = (message: HTMLElement) => message.querySelector('.bubble > .sr-only')!.textContent!.trim();
const has = (message: HTMLElement, name: string) => !!message.querySelector(`[part~="${name}"]`);

/** An open widget whose conversation holds the visitor's question, the reply, and the three other senders. */
async function conversationWithEverySender(attributes: Record<string, string> = {}) {
  const namespace = freshNamespace();
  const { el } = await mount({ open: '', ...attributes }, namespace);
  await el.send('hello');
  await waitForReplies(el, 1);
  await seedOtherSenders(namespace);
  // Shown again: the panel refreshes the conversation.
  el.hide();
  await el.updateComplete;
  el.show();
  await waitFor(
    () => part(el, 'message-agent') && part(el, 'message-system') && parts(el, 'message-bot').length === 2,
    'the other senders',
  );
  await el.updateComplete;
  return { el, namespace };
}

describe('<chatbot-widget> senders', () => {
  it('draws an agent as a person, a system message as a notice, and an unknown sender as the assistant, named', async () => {
    const { el } = await conversationWithEverySender();
    const agent = part(el, 'message-agent')!;
    equal(label(agent), `${el.text.agent}:`, 'the agent named for screen readers');
    equal(agent.querySelector('.sender')?.textContent?.trim(), el.text.agent, 'and named above the bubble');
    equal(agent.querySelector('.plain')?.textContent, AGENT_TEXT, 'a person’s text is plain, as typed');
    equal(agent.querySelector('.bubble strong'), null, 'no Markdown is made of it');
    assert(has(agent, 'copy-button'), 'a person’s reply can be copied');
    assert(!has(agent, 'feedback-up') && !has(agent, 'feedback-down'), 'but not rated: ratings are about the assistant');
    assert(!agent.matches('[part~="message-bot"]'), 'and it is no bot message');

    const notice = part(el, 'message-system')!;
    equal(label(notice), `${el.text.systemNotice}:`);
    equal(notice.querySelector('.plain')?.textContent, NOTICE_TEXT);
    for (const name of ['copy-button', 'feedback-up', 'feedback-down', 'code-copy-button'])
      assert(!has(notice, name), `a notice has no ${name}`);
    const list = part(el, 'messages')!.getBoundingClientRect();
    const box = notice.getBoundingClientRect();
    assert(Math.abs(box.left - list.left - (list.right - box.right)) <= 2, 'a notice sits in the middle of the flow');

    const [reply, other] = parts(el, 'message-bot');
    equal(label(reply!), `${el.text.bot}:`);
    equal(label(other!), 'Assistant (Moderator):', 'an unknown sender is the assistant’s, its type named');
    assert(has(other!, 'copy-button'), 'copied as the assistant’s');
    assert(
      !has(other!, 'feedback-up') && !has(other!, 'feedback-down'),
      'but not rated: the handler keeps ratings of the bot’s own answers only',
    );
    assert(has(reply!, 'feedback-up') && has(reply!, 'feedback-down'), 'the assistant’s own answer is rated');

    equal((await axeViolations(el)).join('\n'), '', 'axe finds nothing');
  });

  it('names every sender in its own language, and stays axe-clean right to left in dark', async () => {
    const { el } = await conversationWithEverySender({ lang: 'ar', theme: 'dark' });
    equal(label(part(el, 'message-agent')!), `${el.text.agent}:`);
    equal(label(parts(el, 'message-bot')[1]!), `${el.text.otherSender.replace('{type}', 'Moderator')}:`);
    assert(el.text.agent !== 'Agent', 'the Arabic word');
    equal((await axeViolations(el)).join('\n'), '');
  });

  it('heads each message of the transcript with its sender, a person’s and a notice’s text kept as text', async () => {
    const { el } = await conversationWithEverySender();
    const downloads = recordDownloads();
    try {
      await el.downloadTranscript();
    } finally {
      downloads.stop();
    }
    const text = await downloads.files[0]!.text;
    const headings = [...text.matchAll(/^### (.+?) · /gm)].map((m) => m[1]);
    equal(headings.join(' | '), 'You | Assistant | Notice | Agent | Assistant (Moderator)');
    assert(text.includes('Hi, Maria here. \\*\\*Not bold\\*\\*'), 'the agent’s asterisks stay text');
    assert(text.includes(NOTICE_TEXT) && text.includes(OTHER_TEXT));
  });

  it('counts the assistant’s and a person’s replies as unread, not notices', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({}, namespace);
    const badge = (widget: ChatbotWidget) => part(widget, 'unread-badge')?.textContent?.trim() ?? '';
    await el.send('first while closed');
    await waitFor(() => badge(el) === '1', 'the reply unread');
    // The refresh that follows a reply has cached the conversation: what comes after it is new.
    const { userId } = (await storedIdentity(namespace))!;
    const [reply] = await upstreamMessages(userId);
    const cached = `conversation|${absoluteEndpoint(namespace)}|${userId}|${reply!.chatSessionId}`;
    await waitFor(async () => (await idbGet<{ messages: unknown[] }>(cached, idbStore))?.messages.length === 2, 'the conversation cached');
    await seedOtherSenders(namespace);
    // The next reply brings the conversation up to date: the reply, the agent's and the unknown
    // sender's are new, the notice is not counted.
    await el.send('second while closed');
    await waitFor(() => badge(el) === '4', "four unread (two replies, the agent's, the unknown sender's)");
    el.show();
    await el.updateComplete;
    await waitFor(() => badge(el) === '', 'seen once opened');
  });
});
