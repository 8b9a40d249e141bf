/**
 * Checks of the security tests: what a rendered reply may contain (a whitelist of elements and
 * attributes), what every link must look like, and whether the browser tried to reach a
 * third-party host (the backend's beacon route on the other loopback name, plus Resource
 * Timing for any other host).
 */
import { equal, waitFor } from './helpers.js';

/** Elements a rendered reply may hold, with the attributes each may carry. */
export const REPLY_WHITELIST: Record<string, readonly string[]> = {
  P: ['class'],
  STRONG: [],
  EM: [],
  DEL: [],
  CODE: [],
  // Its `part` is the widget's (`code-block`, checked below); the widget marks a code block
  // wider than its bubble as a named, focusable region.
  PRE: ['part', 'tabindex', 'role', 'aria-label'],
  BR: [],
  HR: [],
  BLOCKQUOTE: [],
  UL: [],
  OL: ['start'],
  LI: [],
  A: ['href', 'target', 'rel'],
  // A table, in a named, focusable region that scrolls sideways; columns aligned by class.
  DIV: ['class', 'tabindex', 'role', 'aria-label'],
  TABLE: [],
  THEAD: [],
  TBODY: [],
  TR: [],
  TH: ['scope', 'class'],
  TD: ['class'],
};

const ALIGN_CLASSES = ['align-start', 'align-center', 'align-end'];

const SAFE_PROTOCOLS = ['http:', 'https:', 'mailto:', 'tel:'];

/** The problems with what is inside `root` (empty: all inert). Every element is looked at. */
export function inertProblems(root: ParentNode, whitelist: Record<string, readonly string[]> = REPLY_WHITELIST): string[] {
  const problems: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const allowed = whitelist[el.tagName];
    if (!allowed) {
      problems.push(`<${el.tagName.toLowerCase()}> is not allowed`);
      continue;
    }
    for (const { name, value } of el.attributes) {
      if (name.toLowerCase().startsWith('on')) problems.push(`${el.tagName} has ${name}`);
      else if (!allowed.includes(name)) problems.push(`${el.tagName} has ${name}="${value}"`);
    }
    if (el.tagName === 'P' && el.hasAttribute('class') && el.getAttribute('class') !== 'plain')
      problems.push(`P has class ${el.getAttribute('class')}`);
    if (el.tagName === 'DIV' && el.getAttribute('class') !== 'table-scroll') problems.push(`DIV has class ${el.getAttribute('class')}`);
    if ((el.tagName === 'TH' || el.tagName === 'TD') && el.hasAttribute('class') && !ALIGN_CLASSES.includes(el.getAttribute('class')!))
      problems.push(`${el.tagName} has class ${el.getAttribute('class')}`);
    if (el.tagName === 'PRE' && el.hasAttribute('part') && el.getAttribute('part') !== 'code-block')
      problems.push(`PRE has part ${el.getAttribute('part')}`);
    if (el.tagName === 'A') problems.push(...linkProblems(el as HTMLAnchorElement));
  }
  return problems;
}

/** A link may only go to http, https, mailto or tel, in a new tab, without opener or referrer. */
export function linkProblems(a: HTMLAnchorElement): string[] {
  const problems: string[] = [];
  const href = a.getAttribute('href') ?? '';
  let protocol = '';
  try {
    protocol = new URL(href).protocol; // absolute: the widget resolves every link
  } catch {
    problems.push(`link href is not absolute: ${href}`);
  }
  if (!SAFE_PROTOCOLS.includes(protocol)) problems.push(`link to ${href}`);
  if (a.getAttribute('target') !== '_blank') problems.push(`link target ${a.getAttribute('target')}`);
  const rel = (a.getAttribute('rel') ?? '').split(/\s+/);
  if (!rel.includes('noopener') || !rel.includes('noreferrer')) problems.push(`link rel "${a.getAttribute('rel')}"`);
  return problems;
}

/**
 * Elements that load or run something, anywhere in the widget (its own SVG icons and composer
 * form are fine; inside a reply the whitelist refuses everything else anyway).
 */
export const ACTIVE_ELEMENTS =
  'img, iframe, frame, script, style, link, object, embed, video, audio, source, picture, base, meta, input[type=image], svg script, svg foreignObject, svg image, svg use, math, template';

/** The other loopback name: a third-party origin for the browser, the same test server behind it. */
export function thirdPartyOrigin(): string {
  const other = location.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  return `${location.protocol}//${other}:${location.port}`;
}

/** Payload text with `THIRD` replaced by the third-party origin. */
export const withThirdParty = (text: string) => text.replaceAll('THIRD', thirdPartyOrigin());

export async function beacons(): Promise<string[]> {
  const response = await fetch('/__beacons', { cache: 'no-store' });
  return response.json();
}

export const canary = () => (window as unknown as { __pwned?: unknown }).__pwned;

/**
 * Proves that nothing requested a beacon, nor any host but this page's: fires a control request
 * to the third-party origin the way an image would, waits until the backend saw it (so requests
 * started before it have had their chance too), then expects the control to be the only beacon
 * with `prefix`, and no resource of another host in Resource Timing.
 */
export async function expectNoThirdPartyRequest(prefix: string) {
  const control = `${prefix}control-${Math.random().toString(36).slice(2)}`;
  const image = new Image();
  image.src = `${thirdPartyOrigin()}/__beacon/${control}`;
  await waitFor(async () => (await beacons()).includes(control), 'the control beacon (the sensor works)');
  const seen = (await beacons()).filter((name) => name.startsWith(prefix) && name !== control);
  equal(seen.join(', '), '', 'beacons requested by payloads:');
  const foreign = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => new URL(name).host !== location.host && !name.includes('-control-'));
  equal(foreign.join(', '), '', 'resources of other hosts:');
}
