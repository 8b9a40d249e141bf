import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readStartConfig, StartConfigError } from '../../demo/config.js';

test('with no upstream variables npm start runs on the emulator, on loopback, port 8080, with a generated admin token', () => {
  const config = readStartConfig({});
  assert.equal(config.upstream, undefined);
  assert.equal(config.port, 8080);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.generatedAdminToken, true);
  assert.ok(config.adminToken.length >= 20);
  assert.notEqual(readStartConfig({}).adminToken, config.adminToken);
  assert.match(config.dataDir, /\.data$/);
});

test('all four CHATBOT_API_* variables select a real upstream', () => {
  const config = readStartConfig({
    CHATBOT_API_BASE_URL: 'https://chat.example.com/api/',
    CHATBOT_API_KEY: 'pk_1',
    CHATBOT_API_SECRET: 'sk_1',
    CHATBOT_ID: 'bot_1',
    CHATBOT_ADMIN_TOKEN: 'given-token-of-some-length',
    PORT: '9090',
  });
  assert.deepEqual(config.upstream, { baseUrl: 'https://chat.example.com/api', apiKey: 'pk_1', apiSecret: 'sk_1', chatbotId: 'bot_1' });
  assert.equal(config.port, 9090);
  assert.equal(config.adminToken, 'given-token-of-some-length');
  assert.equal(config.generatedAdminToken, false);
});

test('a partial upstream configuration names what is missing and never echoes the secret', () => {
  assert.throws(
    () => readStartConfig({ CHATBOT_API_BASE_URL: 'https://chat.example.com/api', CHATBOT_API_SECRET: 'sk_very_secret' }),
    (error: unknown) =>
      error instanceof StartConfigError &&
      error.message.includes('CHATBOT_API_KEY') &&
      error.message.includes('CHATBOT_ID') &&
      !error.message.includes('sk_very_secret'),
  );
});

test('bad values are refused with the variable named', () => {
  assert.throws(() => readStartConfig({ PORT: 'eighty' }), /PORT must be a port number/);
  assert.throws(() => readStartConfig({ PORT: '70000' }), /PORT/);
  assert.throws(
    () =>
      readStartConfig({
        CHATBOT_API_BASE_URL: 'https://chat.example.com/v1',
        CHATBOT_API_KEY: 'k',
        CHATBOT_API_SECRET: 's',
        CHATBOT_ID: 'b',
      }),
    /CHATBOT_API_BASE_URL must be an http\(s\) URL ending in \/api/,
  );
  assert.throws(
    () =>
      readStartConfig({
        CHATBOT_API_BASE_URL: 'https://chat.example.com/api',
        CHATBOT_API_KEY: 'k',
        CHATBOT_API_SECRET: 's',
        CHATBOT_ID: 'bad/id',
      }),
    /CHATBOT_ID must be 1–128 letters, digits/,
  );
  assert.throws(() => readStartConfig({ CHATBOT_ALLOWED_ORIGINS: 'https://shop.example.com/path' }), /exact origins/);
  assert.throws(() => readStartConfig({ CHATBOT_ALLOWED_ORIGINS: '*' }), /exact origins/);
  assert.throws(() => readStartConfig({ CHATBOT_ADMIN_TOKEN: 'short' }), /CHATBOT_ADMIN_TOKEN must be at least 16 characters/);
});

test('allowed origins are split on commas and trimmed', () => {
  const config = readStartConfig({ CHATBOT_ALLOWED_ORIGINS: ' https://a.example.com, http://localhost:3000 ,' });
  assert.deepEqual(config.allowedOrigins, ['https://a.example.com', 'http://localhost:3000']);
});
