// The docs pages of the command-line client and the emulator, as a new user reads them: what
// they promise about --demo-data, and an example question that the emulator's default replies
// (the knowledge base of the project's docs) actually answer. (No page cites an outside
// document: test/self-contained-docs.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createDefaultReplySource } from '../../src/emulator/replies/index.js';

/** The docs page `docs/<name>.md`. */
function section(name: string): string {
  return readFileSync(new URL(`../../docs/${name}.md`, import.meta.url), 'utf8');
}

test('the emulator page says that --demo-data adds on every start, and how to start clean', () => {
  assert.match(section('emulator'), /`--demo-data N` \*\*adds\*\* N generated messages each time[^]*fresh database/);
});

test("the cli page's example question gets a real answer from the default replies", async () => {
  const question = /npm run --silent api -- send "([^"]+)"/.exec(section('cli'))?.[1];
  assert.ok(question, 'an example send in docs/cli.md');
  const replies = createDefaultReplySource();
  const answer = await replies.reply({ chatbotId: 'demo', userId: 'u', userName: 'Zoë', sessionId: 's', content: question, history: [] });
  // Not the README's own command list echoed back (what "What does the free tier include?" got),
  // but an answer from the docs, named at its end (whole, or cut with a pointer to the rest).
  assert.doesNotMatch(answer, /npm run --silent api/);
  assert.match(answer, /\n\n_(?:From|…more in) docs\/[\w-]+\.md\._$/);
});
