// Every relative link of README.md, docs/**/*.md and the examples' READMEs leads somewhere: its
// file exists and its `#anchor` names a heading of that page, under GitHub's rules for heading
// anchors. Pages get merged and headings renamed; this keeps a link from quietly pointing at
// nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Markdown files under `dir`, recursively. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The lines of `markdown` outside fenced code blocks (inside ones come back empty, so numbers hold). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker) {
        fence = marker;
        return '';
      }
      return line;
    }
    if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    return '';
  });
}

/**
 * The anchor GitHub gives a heading: its text as rendered (inline code, emphasis and link markup
 * taken off), lower-cased, every character other than a letter, digit, space, `-` or `_` dropped,
 * each space made a `-`.
 */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, (tag) => (/^<[a-z][\w-]*>$/i.test(tag) && !/^<\/?(a|code|em|strong|b|i)>$/i.test(tag) ? tag : ''))
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a page: one per heading, a repeated one suffixed `-1`, `-2`…, and explicit `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** The link targets of a page's prose (inline links, images and reference definitions), with their lines. */
export function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  proseLines(markdown).forEach((text, index) => {
    const prose = text.replace(/(`+)[^`]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: index + 1 });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition) links.push({ target: definition[1]!, line: index + 1 });
  });
  return links;
}

/** What is wrong with the relative links of the page at `file` (whose text is `markdown`): one line each. */
export function deadLinks(file: string, markdown: string, read = (path: string) => readFileSync(path, 'utf8')): string[] {
  const dead: string[] = [];
  for (const { target, line } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // another site, mailto:
    const hash = target.indexOf('#');
    const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const where = `${relative(root, file)}:${line}: ${target}`;
    const resolved = path === '' ? file : resolve(dirname(file), path);
    if (path !== '' && !existsSync(resolved)) {
      dead.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md') || (resolved !== file && statSync(resolved).isDirectory())) {
      dead.push(`${where} (an anchor into a file that is not a Markdown page)`);
      continue;
    }
    const text = resolved === file ? markdown : read(resolved);
    if (!anchorsOf(text).has(anchor)) dead.push(`${where} (no heading with that anchor)`);
  }
  return dead;
}

test('headings get the anchors GitHub gives them', () => {
  assert.equal(headingSlug("The site owner's view: `<chatbot-usage>`"), 'the-site-owners-view-chatbot-usage');
  assert.equal(headingSlug('Next.js (App Router)'), 'nextjs-app-router');
  assert.equal(headingSlug('Sending exactly once: `Idempotency-Key`'), 'sending-exactly-once-idempotency-key');
  assert.equal(headingSlug('[Linked](x.md) *and* __kept_under__'), 'linked-and-__kept_under__');
  assert.equal(headingSlug('Größe & Ümlaute'), 'größe--ümlaute');
  assert.deepEqual([...anchorsOf('# A\n## A\n```\n# A\n```\n## A\n')], ['a', 'a-1', 'a-2']);
});

test('a dead link or anchor is found, and a live one is not', () => {
  const file = join(root, 'docs', 'example.md');
  const page = [
    '# Example',
    '## Part one',
    'Fine: [top](#example), [part](#part-one), [handler](../README.md), [site](https://example.com/x#y).',
    'Dead: [gone](nowhere.md), [bad anchor](#part-two), [other page](../README.md#no-such-heading).',
    '`[in code](nowhere-either.md)`',
    '```md',
    '[in a block](nor-this.md)',
    '```',
  ].join('\n');
  const dead = deadLinks(file, page);
  assert.deepEqual(
    dead.map((line) => line.replace(/ \(.*\)$/, '')),
    ['docs/example.md:4: nowhere.md', 'docs/example.md:4: #part-two', 'docs/example.md:4: ../README.md#no-such-heading'],
  );
});

test("every relative link and anchor of README.md, docs/ and the examples' READMEs resolves", () => {
  const examples = readdirSync(join(root, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, 'examples', entry.name, 'README.md'))
    .filter((file) => existsSync(file));
  const files = [join(root, 'README.md'), join(root, 'examples', 'README.md'), ...examples, ...markdownFiles(join(root, 'docs'))];
  assert.ok(files.length > 10, 'the docs were found');
  const dead = files.flatMap((file) => deadLinks(file, readFileSync(file, 'utf8')));
  assert.deepEqual(dead, []);
});
