import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultReplySource, createKnowledgeBaseReplySource, type ReplyRequest } from '../../../src/emulator/replies/index.js';

function request(content: string, userName = 'Ada'): ReplyRequest {
  return { chatbotId: 'bot_a', userId: 'u1', userName, sessionId: 's1', content, history: [] };
}

const EMBEDDING = `# Embedding the widget

Intro paragraph about the widget and the handler.

## Embed the widget with a script tag

Add two lines to any page:

\`\`\`html
<script type="module" src="/chatbot-widget.js"></script>
<chatbot-widget endpoint="/chatbot" heading="Help"></chatbot-widget>
\`\`\`

See [Deploying](deployment.md) for the handler.

## Styling

Set --chatbot-* custom properties for colours and fonts.

| property | meaning | default |
|---|---|---|
| \`--chatbot-accent\` | buttons and links | blue |
`;

const FAQ = `# Frequently asked questions

## Is my API secret safe?

Yes. The secret stays on the server, inside the signing handler.
`;

function fixtureDocs(t: { after(fn: () => void): void }): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'kb-docs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const embedding = join(dir, 'embedding.md');
  const faq = join(dir, 'faq.md');
  writeFileSync(embedding, EMBEDDING);
  writeFileSync(faq, FAQ);
  return [embedding, faq];
}

test('answers "how do I embed the widget?" with the embedding section, Markdown kept', async (t) => {
  const source = createKnowledgeBaseReplySource({ docs: fixtureDocs(t) });
  const reply = await source.reply(request('how do I embed the widget?'));
  assert.match(reply, /^\*\*Embed the widget with a script tag\*\*/);
  assert.ok(reply.includes('```html\n<script type="module" src="/chatbot-widget.js"></script>'), reply);
  assert.ok(reply.includes('<chatbot-widget endpoint="/chatbot" heading="Help"></chatbot-widget>\n```'), reply);
  // A link to another docs file would resolve against the visitor's page: it becomes plain text.
  assert.ok(reply.includes('See Deploying for the handler.'), reply);
  assert.ok(!reply.includes('(deployment.md)'), reply);
  assert.match(reply, /embedding\.md/);
});

test('the same question always gets the same answer, from one source or a fresh one', async (t) => {
  const docs = fixtureDocs(t);
  const first = createKnowledgeBaseReplySource({ docs });
  const second = createKnowledgeBaseReplySource({ docs });
  for (const question of ['how do I embed the widget?', 'is the secret safe', 'colours', 'hello', 'zzzz qqqq']) {
    const a = await first.reply(request(question));
    assert.equal(await first.reply(request(question)), a, question);
    assert.equal(await second.reply(request(question)), a, question);
  }
});

test('says honestly when nothing matches, with topics to ask about', async (t) => {
  const source = createKnowledgeBaseReplySource({ docs: fixtureDocs(t) });
  const reply = await source.reply(request('xylophone quantum zebra'));
  assert.match(reply, /^I couldn't find that in the docs/);
  assert.ok(reply.includes('**Embedding the widget**') && reply.includes('**Frequently asked questions**'), reply);
});

test('greets on greetings in several languages and thanks on thanks', async (t) => {
  const source = createKnowledgeBaseReplySource({ docs: fixtureDocs(t) });
  for (const greeting of ['hi', 'Hello!', 'Bonjour !', 'hola', 'Guten Tag', 'Привет', '你好', 'good morning 👋']) {
    assert.match(await source.reply(request(greeting, 'Ada')), /^Hello, Ada! /, greeting);
  }
  assert.match(await source.reply(request('hello', '')), /^Hello! /);
  assert.match(await source.reply(request('Thanks!')), /^You're welcome, Ada!/);
  // A greeting followed by a question is a question.
  assert.match(await source.reply(request('hi, how do I embed the widget?')), /^\*\*Embed the widget/);
});

test('builds the index once per source, lazily, not per request', async (t) => {
  const docs = fixtureDocs(t);
  const reads: string[] = [];
  const source = createKnowledgeBaseReplySource({
    docs,
    readFile: (path) => {
      reads.push(path);
      return path.endsWith('faq.md') ? FAQ : EMBEDDING;
    },
  });
  assert.equal(reads.length, 0, 'nothing is read before the first message');
  await source.reply(request('how do I embed the widget?'));
  assert.deepEqual(reads, docs);
  for (let i = 0; i < 5; i++) await source.reply(request(`question ${i} about styling`));
  assert.equal(source.sectionCount, 4);
  assert.deepEqual(reads, docs, 'later messages reuse the index');
});

test('trims a long section at a paragraph boundary, keeping its title', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-long-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} about theming. ${'Lorem ipsum dolor sit amet. '.repeat(6)}`);
  const path = join(dir, 'long.md');
  writeFileSync(path, `# Long\n\n## Theming in depth\n\n${paragraphs.join('\n\n')}\n`);
  const reply = await createKnowledgeBaseReplySource({ docs: [path] }).reply(request('theming'));
  assert.match(reply, /^\*\*Theming in depth\*\*\n\n/);
  const body = reply.split('\n\n').slice(1, -1);
  assert.ok(body.length >= 2 && body.length < 12, `kept ${body.length} paragraphs`);
  body.forEach((paragraph, i) => assert.equal(paragraph, paragraphs[i]));
  assert.ok(reply.length < 1200 + 200, `reply is ${reply.length} characters`);
  assert.match(reply, /_…more in long\.md\._$/);
});

test('a missing docs file is reported at creation, naming the file', () => {
  assert.throws(
    () => createKnowledgeBaseReplySource({ docs: ['/nonexistent/nowhere.md'] }),
    /docs file not found: \/nonexistent\/nowhere\.md/,
  );
});

test('an aborted request is not answered', async (t) => {
  const source = createKnowledgeBaseReplySource({ docs: fixtureDocs(t) });
  const controller = new AbortController();
  controller.abort(new Error('gone'));
  await assert.rejects(source.reply(request('hello'), controller.signal), /gone/);
});

test('the default source answers from the project docs (README.md and docs/*.md)', async () => {
  const source = createDefaultReplySource();
  assert.equal(source.name, 'knowledge-base');
  const reply = await source.reply(request('How do I embed the widget?'));
  assert.ok(reply.includes('<chatbot-widget endpoint="/chatbot"'), reply);
  assert.ok(reply.includes('<script type="module" src="/chatbot-widget.js"></script>'), reply);
  assert.ok(reply.length <= 1500, `reply is ${reply.length} characters`);
  assert.match(await source.reply(request('Is my API secret safe?')), /secret/i);
  assert.match(await source.reply(request('blorptastic frobnication')), /^I couldn't find that in the docs/);
});

test('a table in the matching section is answered as a list (the widget shows no tables)', async (t) => {
  const source = createKnowledgeBaseReplySource({ docs: fixtureDocs(t) });
  const reply = await source.reply(request('styling custom properties colours fonts'));
  assert.match(reply, /^\*\*Styling\*\*/);
  assert.ok(reply.includes('- `--chatbot-accent` — buttons and links; default: blue'), reply);
  assert.ok(!reply.includes('|'), reply);
});
