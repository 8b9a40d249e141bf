import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens } from '../../src/emulator/tokens.js';

test('the empty string has 0 tokens; any other text at least 1', () => {
  assert.equal(countTokens(''), 0);
  for (const text of [' ', '\n', 'a', '?', '🙂', 'é', '你', '\uD800' /* a lone surrogate */, '\u0000']) {
    assert.ok(countTokens(text) >= 1, JSON.stringify(text));
  }
});

test('longer text has more tokens, roughly in proportion', () => {
  const sentence = 'How do I embed the widget on my website? ';
  const one = countTokens(sentence);
  const ten = countTokens(sentence.repeat(10));
  assert.ok(one >= 5 && one <= 15, `one sentence: ${one}`);
  assert.ok(ten > one * 8 && ten <= one * 10, `ten sentences: ${ten}`);
  assert.ok(countTokens('hello world') < countTokens('hello world, how are you today?'));
});

test('counts non-ASCII text: accents, CJK, Cyrillic, Arabic, emoji', () => {
  const samples = [
    'Comment intégrer le widget ?',
    'ウィジェットをサイトに埋め込むには',
    '如何嵌入聊天机器人',
    'Как встроить виджет?',
    'كيف يمكنني تضمين الأداة',
    '👍🙂🎉',
  ];
  for (const text of samples) {
    const n = countTokens(text);
    assert.ok(n >= 1 && n <= [...text].length * 2, `${text}: ${n}`);
  }
  // A BPE tokenizer spends more tokens on scripts it has seen less, never fewer than one a word.
  assert.ok(countTokens('如何嵌入聊天机器人') >= 3);
});

test('is deterministic', () => {
  const text = 'The secret stays on the server. Das Geheimnis bleibt auf dem Server. 秘密はサーバーに残ります。';
  assert.equal(countTokens(text), countTokens(text));
});
