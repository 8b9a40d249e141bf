// What a page downloads for the widget's texts: the loader, plus the one
// language chunk it shows, against the baseline of every language bundled into the widget (what
// a single-file build would ship). Built with Vite as the standalone widget is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildLanguages, LOADER_ENTRY } from '../scripts/build-languages.js';

const out = mkdtempSync(join(tmpdir(), 'chatbot-widget-bench-locales-'));
try {
  const files = await buildLanguages(out);
  const gzip = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
  const kB = (n: number) => `${(n / 1024).toFixed(2)} kB`;
  const entry = gzip(files.get(LOADER_ENTRY)!);
  const chunks = [...files]
    .filter(([name]) => name !== LOADER_ENTRY)
    .map(([name, bytes]) => ({ name: name.replace(/-[\w-]{8}\.js$/, ''), size: gzip(bytes) }));
  chunks.sort((a, b) => b.size - a.size);
  const all = gzip(Buffer.concat([...files.values()]));
  const largest = chunks[0]!;

  console.log(`loader                         ${kB(entry)} gzip`);
  console.log(
    `one language chunk             ${kB(Math.min(...chunks.map((c) => c.size)))}–${kB(largest.size)} gzip (largest: ${largest.name})`,
  );
  for (const { name, size } of chunks) console.log(`  ${name.padEnd(8)} ${kB(size)}`);
  const worstPage = entry + largest.size;
  console.log(`a page in the largest language ${kB(worstPage)} gzip`);
  console.log(
    `baseline, all ${chunks.length} languages bundled ${kB(all)} gzip: a page downloads ${(worstPage / all).toFixed(2)}x of it (${(all / worstPage).toFixed(1)}x less)`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
