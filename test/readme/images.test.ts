// The README's and the docs' pictures (docs/images) are the screenshot tests' approved baselines,
// byte for byte (scripts/readme-images.mjs; `npm run test:visual:update` writes both), so they
// never show a look the tests no longer approve. Every picture the Markdown names is one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINES, README_IMAGES, root } from '../../scripts/readme-images.mjs';

test('every picture in docs/images equals the screenshot baseline it is made from', () => {
  for (const [picture, baseline] of Object.entries(README_IMAGES)) {
    const shown = readFileSync(join(root, 'docs/images', picture));
    const approved = readFileSync(join(root, BASELINES, baseline));
    assert.ok(shown.equals(approved), `docs/images/${picture} differs from ${BASELINES}/${baseline}: run npm run test:visual:update`);
  }
});

test('the README and docs show only pictures made from baselines', () => {
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const named = new Set(
    pages.flatMap((page) => [...readFileSync(join(root, page), 'utf8').matchAll(/images\/([\w-]+\.png)/g)].map((m) => m[1]!)),
  );
  assert.deepEqual([...named].sort(), Object.keys(README_IMAGES).sort());
  assert.deepEqual(readdirSync(join(root, 'docs/images')).sort(), Object.keys(README_IMAGES).sort(), 'no other file in docs/images');
});
