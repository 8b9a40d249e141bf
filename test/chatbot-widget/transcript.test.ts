// The transcript: a Markdown file of a conversation, from the cache. Visitor text stays text
// (checked by rendering the file with marked), bot Markdown is kept, an open fence is closed.
import { marked } from 'marked';
import { assert, browserOnline, equal, mount, network, part, unmountAll, waitFor } from '../helpers/browser/helpers.js';
import { visitorWithCachedSessions } from '../helpers/browser/cached-sessions.js';
import { recordDownloads } from '../helpers/browser/downloads.js';
import { closeFences, escapeMarkdown, transcriptFileName, transcriptMarkdown } from '../../src/chatbot-widget/transcript.js';
import { strings as defaultStrings } from '../../src/ui/locales/en.js';
import type { Message } from '../../src/shared/types.js';

const HOSTILE = [
  '# Not a heading',
  '> not a quote',
  '- not a list',
  '+ nor this',
  '2. nor this) 3) one',
  '[not a link](https://evil.example) ![nor an image](x.png)',
  '<img src=x onerror=alert(1)> &amp; <b>bold</b>',
  '```',
  '    not code',
  '***',
  '| a | b |',
  '|---|---|',
  'Title',
  '===',
  '*stars* _under_ `tick` ~~strike~~ \\backslash',
].join('\n');

/** The elements marked makes of some Markdown, and its text. */
function rendered(markdown: string) {
  const template = document.createElement('template');
  template.innerHTML = marked.parse(markdown, { async: false });
  const tags = [...template.content.querySelectorAll('*')].map((e) => e.localName);
  const links = [...template.content.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
  return { tags, links, text: template.content.textContent! };
}

function message(i: number, senderType: 'User' | 'Bot', text: string, createdAt: string, url?: string): Message {
  return {
    id: `m${i}`,
    chatbotId: 'b',
    chatSessionId: 's',
    chatUserId: 'u',
    senderType,
    text,
    tokenCount: 1,
    createdAt,
    ...(url ? { url } : {}),
  };
}

describe('transcript: Markdown', () => {
  it("keeps the visitor's text as text: no heading, list, link, HTML or code comes of it", () => {
    const { tags, links, text } = rendered(escapeMarkdown(HOSTILE));
    equal([...new Set(tags.filter((t) => t !== 'a'))].join(','), 'p,br', 'one paragraph with line breaks');
    // A bare address may be made a link by GFM viewers: it shows where it goes, as typed.
    equal(JSON.stringify(links), '[["https://evil.example","https://evil.example"]]', 'no link text hides its target');
    equal(
      text.replace(/\n/g, ''),
      HOSTILE.split('\n')
        .map((line) => line.trimStart())
        .join(''),
      'the same characters',
    );
  });

  it('closes an open code fence of the bot, and leaves closed ones alone', () => {
    equal(closeFences('```js\nlet a;'), '```js\nlet a;\n```');
    equal(closeFences('````\n```\nstill code'), '````\n```\nstill code\n````');
    equal(closeFences('```\ncode\n```\nafter'), '```\ncode\n```\nafter');
  });

  it('writes a heading with the date, each message with sender and time, bot Markdown kept', () => {
    const messages = [
      message(1, 'User', '# hi [x](y)', '2025-03-04T12:00:00Z'),
      message(2, 'Bot', 'Use **bold** and\n\n```\nunclosed', '2025-03-04T12:00:05Z'),
      message(3, 'User', 'see file', '2025-03-04T12:01:00Z', 'https://example.com/a b.png'),
    ];
    const markdown = transcriptMarkdown(messages, { heading: 'Ask *us*', strings: defaultStrings, locale: 'en-US' });
    const lines = markdown.split('\n');
    equal(lines[0], '# Ask \\*us\\* — Conversation of March 4, 2025');
    const senders = lines.filter((l) => l.startsWith('### '));
    equal(senders.length, 3);
    assert(/^### You · Mar 4, 2025, \d{1,2}:\d{2}/.test(senders[0]!), senders[0]);
    assert(senders[1]!.startsWith('### Assistant · '), senders[1]);
    assert(markdown.includes('\\# hi \\[x\\](y)'), 'visitor text escaped');
    assert(markdown.includes('Use **bold** and'), 'bot Markdown kept');
    assert(markdown.includes('Attachment: <https://example.com/a%20b.png>'), markdown);
    const { tags } = rendered(markdown);
    equal(tags.filter((t) => t === 'h3').length, 3, 'the bot’s open fence does not swallow the next message');
    equal(transcriptFileName(messages), `chat-2025-03-04.md`);
  });
});

const today = () => {
  const d = new Date();
  return `chat-${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}.md`;
};

describe('<chatbot-widget> transcript', () => {
  let downloads: ReturnType<typeof recordDownloads>;
  beforeEach(() => {
    downloads = recordDownloads();
  });
  afterEach(() => {
    downloads.stop();
    browserOnline(true);
    unmountAll();
  });

  it('downloads the conversation shown, offline, as Markdown; or another one by its session id', async () => {
    const { el, namespace, sessionIds } = await visitorWithCachedSessions('# not a *heading*', [['an older question']], {
      heading: 'Help desk',
    });
    await network(namespace, 'down');
    browserOnline(false);
    await el.downloadTranscript();
    equal(downloads.files.length, 1);
    equal(downloads.files[0]!.name, today());
    const text = await downloads.files[0]!.text;
    assert(text.startsWith('# Help desk — Conversation of '), text);
    assert(text.includes('### You · ') && text.includes('### Assistant · '), text);
    assert(text.includes('\\# not a \\*heading\\*'), 'the visitor text escaped');
    await el.downloadTranscript(sessionIds[0]);
    const older = await downloads.files[1]!.text;
    assert(older.includes('an older question') && !older.includes('not a'), older);
  });

  it('downloads from the download button in the panel header', async () => {
    const { el } = await visitorWithCachedSessions('button please', []);
    part(el, 'download-button')!.click();
    await waitFor(() => downloads.files.length, 'a download');
    assert((await downloads.files[0]!.text).includes('button please'));
  });

  it('rejects with an error naming the session and what to do when nothing is cached for it', async () => {
    const { el } = await mount({ open: '' });
    const nothing = await el.downloadTranscript().then(
      () => undefined,
      (error: unknown) => error,
    );
    assert(nothing instanceof Error && /no conversation/i.test(nothing.message), String(nothing));
    assert(nothing.message.includes('pass the id of a session the history pane lists'), nothing.message);
    const unknown = await el.downloadTranscript('no-such-session').then(
      () => undefined,
      (error: unknown) => error,
    );
    assert(unknown instanceof Error && unknown.message.includes('"no-such-session"'), String(unknown));
    assert(unknown.message.includes('Open that conversation in the widget while online'), unknown.message);
    equal(downloads.files.length, 0);
  });
});
