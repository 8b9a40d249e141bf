// <chatbot-widget> in Svelte components, checked by svelte-check through the svelte/elements
// declaration of chatbot-widget/svelte: right uses compile, each line marked wrong fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertBuilt, checkers, errorLines, markedLines } from './template-check.js';

test('Svelte components: right uses compile, each wrong attribute, property or event detail fails', async () => {
  assertBuilt();
  const output = await checkers.svelteCheck('svelte');
  assert.match(output, /COMPLETED/, `svelte-check ran:\n${output}`);
  assert.deepEqual(errorLines(output), markedLines('svelte/Ok.svelte', 'svelte/Wrong.svelte'), `svelte-check:\n${output}`);
});
