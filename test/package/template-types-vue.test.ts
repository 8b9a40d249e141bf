// <chatbot-widget> in Vue templates, type-checked by vue-tsc through the GlobalComponents
// declaration of chatbot-widget/vue: right uses compile, each line marked wrong fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertBuilt, checkers, errorLines, markedLines } from './template-check.js';

test('Vue templates: right uses compile, each wrong attribute, property or event detail fails', async () => {
  assertBuilt();
  const output = await checkers.vueTsc('tsconfig.vue.json');
  assert.deepEqual(errorLines(output), markedLines('vue/Ok.vue', 'vue/Wrong.vue'), `vue-tsc:\n${output}`);
});
