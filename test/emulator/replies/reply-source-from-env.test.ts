import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReplySourceFromEnv } from '../../../src/emulator/replies/index.js';

const OWN = {
  CHATBOT_EMULATOR_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
  CHATBOT_EMULATOR_OPENAI_MODEL: 'llama3.2',
  CHATBOT_EMULATOR_OPENAI_API_KEY: 'ollama',
};

test('no variables: the knowledge base', () => {
  assert.equal(createReplySourceFromEnv({}).name, 'knowledge-base');
});

test('the three CHATBOT_EMULATOR_OPENAI_* variables select the OpenAI-compatible source', () => {
  assert.equal(createReplySourceFromEnv(OWN).name, 'openai:llama3.2');
});

test("the generic OPENAI_* variables work as a fallback, the emulator's own ones win", () => {
  const generic = { OPENAI_BASE_URL: 'https://api.openai.com/v1', OPENAI_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-x' };
  assert.equal(createReplySourceFromEnv(generic).name, 'openai:gpt-4o-mini');
  assert.equal(createReplySourceFromEnv({ ...generic, CHATBOT_EMULATOR_OPENAI_MODEL: 'other' }).name, 'openai:other');
});

test('a lone OPENAI_API_KEY in the shell does not switch sources', () => {
  assert.equal(createReplySourceFromEnv({ OPENAI_API_KEY: 'sk-x' }).name, 'knowledge-base');
});

test('a partial CHATBOT_EMULATOR_OPENAI_* configuration is an error naming what is missing', () => {
  assert.throws(
    () => createReplySourceFromEnv({ CHATBOT_EMULATOR_OPENAI_BASE_URL: OWN.CHATBOT_EMULATOR_OPENAI_BASE_URL }),
    /missing CHATBOT_EMULATOR_OPENAI_MODEL, CHATBOT_EMULATOR_OPENAI_API_KEY/,
  );
});

test('CHATBOT_EMULATOR_REPLIES=knowledge-base forces the default; other values are refused', () => {
  assert.equal(createReplySourceFromEnv({ ...OWN, CHATBOT_EMULATOR_REPLIES: 'knowledge-base' }).name, 'knowledge-base');
  assert.throws(() => createReplySourceFromEnv({ CHATBOT_EMULATOR_REPLIES: 'magic' }), /must be "knowledge-base"/);
});

test('a bad timeout or base URL is refused with the variable named', () => {
  assert.throws(
    () => createReplySourceFromEnv({ ...OWN, CHATBOT_EMULATOR_OPENAI_TIMEOUT_MS: 'soon' }),
    /CHATBOT_EMULATOR_OPENAI_TIMEOUT_MS/,
  );
  assert.throws(
    () => createReplySourceFromEnv({ ...OWN, CHATBOT_EMULATOR_OPENAI_BASE_URL: 'not a url' }),
    /baseUrl must be an absolute URL/,
  );
});
