/**
 * The benchmarks' demo database seed: `count` messages over 24 months before a fixed clock
 * (generateDemoMessages, fixed PRNG seed, random UUID ids as real data would have), written once
 * as JSON Lines to bench/.cache (git-ignored) and reused by every benchmark that needs it.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { generateDemoMessages } from '../../src/emulator/demo-data.js';

export const BENCH_CACHE = join(new URL('../..', import.meta.url).pathname, 'bench/.cache');
/** The end of the demo period: the data covers the 24 months before it. */
export const BENCH_NOW = new Date('2025-06-15T10:00:00Z');

/** Path of the seed file of `count` messages for `chatbotId`, generated on first use. */
export async function cachedSeedFile(count: number, chatbotId: string): Promise<string> {
  mkdirSync(BENCH_CACHE, { recursive: true });
  const seedPath = join(BENCH_CACHE, `emulator-seed-${count}-24mo.jsonl`);
  if (existsSync(seedPath)) return seedPath;
  const started = performance.now();
  const partial = `${seedPath}.partial`;
  const out = createWriteStream(partial);
  let buffer = '';
  for (const record of generateDemoMessages({ count, chatbotId, now: BENCH_NOW, months: 24, seed: 1 })) {
    buffer += JSON.stringify({ id: randomUUID(), ...record }) + '\n';
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  renameSync(partial, seedPath);
  console.log(
    `generated ${seedPath} (${(statSync(seedPath).size / 1e6).toFixed(0)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return seedPath;
}
