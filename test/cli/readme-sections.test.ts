// The README sections of the command-line client and the emulator, as a new user reads them:
// no references to files this repository does not ship, and an example question that the
// emulator's default replies (the knowledge base of the project's docs) actually answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createDefaultReplySource } from '../../src/emulator/replies/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function section(name: string): string {
  const start = readme.indexOf(`<!-- section:${name} -->`);
  const end = readme.indexOf(`<!-- /section:${name} -->`);
  assert.ok(start !== -1 && end > start, `README section ${name}`);
  return readme.slice(start, end);
}

test('the cli and emulator sections cite no document a user of this repository lacks', () => {
  for (const name of ['cli', 'emulator']) {
    assert.doesNotMatch(section(name), /api-spec|CONTRACT|§/, name);
  }
});

test('the emulator section says that --demo-data adds on every start, and how to start clean', () => {
  assert.match(section('emulator'), /`--demo-data N` \*\*adds\*\* N generated messages each time[^]*fresh database/);
});

test("the cli section's example question gets a real answer from the default replies", async () => {
  const question = /npm run --silent api -- send "([^"]+)"/.exec(section('cli'))?.[1];
  assert.ok(question, 'an example send in the cli section');
  const replies = await createDefaultReplySource();
  const answer = await replies.reply({ chatbotId: 'demo', userId: 'u', userName: 'Zoë', sessionId: 's', content: question, history: [] });
  // Not the README's own command list echoed back (what "What does the free tier include?" got),
  // but an answer from the docs.
  assert.doesNotMatch(answer, /npm run --silent api/);
  assert.match(answer, /_From docs\/[\w-]+\.md\._/);
});
