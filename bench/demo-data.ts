/**
 * How fast `generateDemoMessages` produces records, for `chatbot-emulator --demo-data N` and the
 * emulator's benchmarks, which need a million records in well under 30 s.
 *
 * Baseline: the same records with every text tokenized per record instead of once per text of the
 * pool (measured on a sample and scaled), i.e. what precomputing the token counts saves.
 *
 *   npx tsx bench/demo-data.ts [count=1000000]
 */
import { generateDemoMessages } from '../src/emulator/demo-data.js';
import { countTokens } from '../src/emulator/tokens.js';

const count = Number(process.argv[2] ?? 1_000_000);
const options = { chatbotId: 'bench', now: new Date('2025-06-15T10:00:00Z'), seed: 1 };
const BUDGET_S = 30;

// Warm-up: loads the tokenizer and lets the JIT settle, so the figure is the generator's own.
for (const _ of generateDemoMessages({ ...options, count: 20_000 }));

const started = performance.now();
let bytes = 0;
let n = 0;
for (const record of generateDemoMessages({ ...options, count })) {
  n++;
  bytes += record.text.length;
}
const seconds = (performance.now() - started) / 1000;

// Baseline: tokenizing each record's text, on a sample, scaled to `count`.
const sampleSize = Math.min(count, 100_000);
const sample = [...generateDemoMessages({ ...options, count: sampleSize })];
const tokenizeStarted = performance.now();
let tokens = 0;
for (const record of sample) tokens += countTokens(record.text);
const tokenizeSeconds = ((performance.now() - tokenizeStarted) / 1000) * (count / sampleSize);
const baselineSeconds = seconds + tokenizeSeconds;

console.log(
  `demo-data: ${n.toLocaleString('en')} records in ${seconds.toFixed(2)} s (${Math.round(n / seconds).toLocaleString('en')} records/s, ${(bytes / 1e6).toFixed(0)} MB of text)`,
);
console.log(
  `  baseline, tokenizing every record: ~${baselineSeconds.toFixed(2)} s (${tokens} tokens in a ${sampleSize.toLocaleString('en')}-record sample)`,
);
console.log(
  `  ratio: ${(baselineSeconds / seconds).toFixed(1)}x faster than the baseline; ${((seconds / BUDGET_S) * 100).toFixed(1)} % of the ${BUDGET_S} s budget`,
);
