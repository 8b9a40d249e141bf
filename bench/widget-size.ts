// The standalone widget's weight: builds dist/chatbot-widget.js with Vite (vite.config.ts) and
// prints its raw, gzip and brotli sizes against the 40 kB gzip budget and Deep Chat's 110.6 kB
// gzip (the baseline: a popular drop-in chat web component). Exits 1 over budget.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const BUDGET_GZIP = 40 * 1024;
const DEEP_CHAT_GZIP = 110.6 * 1024;

const build = spawnSync(`${root}node_modules/.bin/vite`, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const code = readFileSync(`${root}dist/chatbot-widget.js`);
const text = code.toString('utf8');
if (/^\s*import\s*(?:[^'"]*from\s*)?['"](?![./])/m.test(text) || /\bimport\(\s*['"](?![./])/.test(text)) {
  console.error('dist/chatbot-widget.js has a bare import: it would not load from a <script> tag.');
  process.exit(1);
}
const gzip = gzipSync(code, { level: 9 }).length;
const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

console.log('dist/chatbot-widget.js (Lit, idb-keyval and marked bundled; no other request)');
console.log(`  raw     ${kB(code.length)}`);
console.log(`  gzip    ${kB(gzip)}   budget ${kB(BUDGET_GZIP)} (${((gzip / BUDGET_GZIP) * 100).toFixed(0)}% used)`);
console.log(`  brotli  ${kB(brotli)}`);
console.log(
  `  vs Deep Chat ${kB(DEEP_CHAT_GZIP)} gzip: ${(gzip / DEEP_CHAT_GZIP).toFixed(2)}x the size (${(DEEP_CHAT_GZIP / gzip).toFixed(1)}x smaller)`,
);
if (gzip > BUDGET_GZIP) {
  console.error(`Over the ${kB(BUDGET_GZIP)} gzip budget.`);
  process.exit(1);
}
