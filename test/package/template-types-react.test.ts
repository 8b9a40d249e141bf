// <chatbot-widget> and the ChatbotWidget component in JSX, type-checked by tsc with React 19's
// and with React 18's typings: right uses compile, each line marked wrong fails (template-check.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertBuilt, checkers, errorLines, markedLines } from './template-check.js';

test('JSX with React 19 and React 18 typings: right uses compile, each wrong attribute, prop or event detail fails', async () => {
  assertBuilt();
  const [react19, react18] = await Promise.all([
    checkers.tsc('tsconfig.react19.json'),
    checkers.tsc('tsconfig.react18.json', '--listFiles'),
  ]);
  assert.match(react18, /@types\/react-18\/index\.d\.ts/, 'the React 18 check reads React 18 typings');
  const expected = markedLines('react/ok.tsx', 'react/wrong.tsx');
  assert.ok(expected.length >= 8, 'the React fixture marks its wrong lines');
  assert.deepEqual(errorLines(react19), expected, `React 19 typings:\n${react19}`);
  assert.deepEqual(errorLines(react18), expected, `React 18 typings:\n${react18}`);
});
