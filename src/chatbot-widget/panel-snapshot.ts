/**
 * The panel's snapshot: what the open panel showed when its page was last hidden (a reload, a
 * link followed, another tab), carried by the first-paint record in localStorage so that the next
 * load paints it in the element's own first render. The panel's code is a chunk of its own (the
 * first load stays small); even from the HTTP cache it is drawn about 24 ms after the element is
 * created, more than the one frame (16 ms) a reload should take. The snapshot is painted in that
 * frame.
 *
 * It is a picture, not the panel: inert (no focus, no clicks, left out by assistive technology,
 * which hears the panel itself a moment later), replaced as soon as the panel's code has drawn.
 * So it is kept only when it is what that code draws first: the record's conversation, at its
 * end, nothing open over it; and as it lives in the record, any new record (a new message,
 * another conversation, another visitor, `reset()`) is without it. A snapshot never shows what
 * the panel would not, nor anyone's but the stored visitor's.
 *
 * The record is untrusted: anything running on the origin can write localStorage. So it holds
 * only a tree (elements, attributes, text), rebuilt with the DOM's methods, never parsed from HTML
 * (a page with Trusted Types and a strict Content Security Policy allows it), and of the elements
 * and attributes the panel draws with only (no script, frame, image, custom element or event
 * handler). It carries no styles: the snapshot is drawn with the conversation's styles, which ship
 * in the first load (chatbot-widget/conversation.styles.ts). Its size, node count and depth are
 * bounded on reading as on writing, checked while it is rebuilt; a record that is too large or not
 * of this shape goes, whole.
 */
import { endpointBase } from '../ui/endpoint-base.js';
import { attempt, MAX_PAINT_RECORD_CHARS, paintKey, visitorKey } from '../ui/local-records.js';

/**
 * An element, or text. Kept as a list rather than an object with named fields: a snapshot has
 * about a thousand nodes, and the record must stay small. Written by `snapshotOf`
 * (panel/take-snapshot.ts), read by `snapshotIn` below, each naming the fields.
 */
export type SnapshotNode =
  string | [namespace: string, name: string, attributes: [name: string, value: string][], children: SnapshotNode[]];

/** A snapshot as the record carries it: the panel's children. */
export type StoredSnapshot = SnapshotNode[];

/** Most nodes (elements and text) in a snapshot: a tall panel full of replies has about a thousand. */
export const MAX_SNAPSHOT_NODES = 4_096;
/** Deepest node, the panel's children being 1: Markdown nests at most 12 blocks (a list is two levels each). */
export const MAX_SNAPSHOT_DEPTH = 64;

/** The namespaces the panel draws in: HTML and SVG (its icons). */
const NAMESPACES = ['http://www.w3.org/1999/xhtml', 'http://www.w3.org/2000/svg'];
/**
 * The elements the panel draws in view (the history pane is never in a snapshot): no other is
 * built. The name is checked before the element is made, so no custom element's code runs, and a
 * prefix (`x:script`) is no such name.
 */
const ELEMENTS = /^(a|blockquote|br|button|code|del|div|em|form|h2|hr|input|li|ol|p|path|pre|rect|span|strong|svg|textarea|time|ul)$/;
/** The attributes that make its look: no other is rebuilt (a link's address becomes `#`). */
const ATTRIBUTES =
  /^(class|part|id|hidden|disabled|placeholder|start|type|dir|href|aria-(hidden|pressed)|data-[a-z-]+|viewBox|d|x|y|rx|width|height)$/;

/**
 * The endpoint's snapshot, if its record is the stored visitor's, built; read synchronously.
 * Undefined too for an `endpoint` that is no URL. A record whose snapshot cannot be built (too
 * large, or not a snapshot) is removed: the first paint then waits for the cache in IndexedDB.
 */
export function readSnapshot(endpoint: string): Node[] | undefined {
  return attempt((storage) => {
    const base = endpointBase(endpoint);
    const text = storage.getItem(paintKey(base));
    if (text === null) return undefined;
    try {
      return snapshotIn(text, storage.getItem(visitorKey(base)));
    } catch {
      storage.removeItem(paintKey(base));
      return undefined;
    }
  });
}

/**
 * The snapshot a record's JSON carries, built; undefined when it has none or is not `visitor`'s.
 * Throws for a record too large or of another shape, as soon as that shows.
 */
function snapshotIn(text: string, visitor: string | null): Node[] | undefined {
  if (text.length > MAX_PAINT_RECORD_CHARS) throw new RangeError('The first-paint record is too large.');
  const record: unknown = JSON.parse(text);
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new TypeError('The first-paint record is not an object.');
  const { userId, snapshot } = record as { userId?: unknown; snapshot?: unknown };
  if (snapshot === undefined || userId !== visitor) return undefined;
  let built = 0;
  const build = (node: unknown, depth: number): Node => {
    if (++built > MAX_SNAPSHOT_NODES || depth > MAX_SNAPSHOT_DEPTH) throw new RangeError('The snapshot is too large.');
    if (typeof node === 'string') return document.createTextNode(node);
    const [namespace, name, attributes, children] = fields(node, 4);
    const pairs = fields(attributes).map((pair) => fields(pair, 2).map(textOf) as [string, string]);
    if (!NAMESPACES.includes(textOf(namespace))) throw new TypeError('Not a snapshot.');
    // An element the panel never draws is left out, with what it holds.
    if (!ELEMENTS.test(textOf(name))) return document.createTextNode('');
    const element = document.createElementNS(namespace as string, name as string);
    for (const [attribute, value] of pairs)
      if (ATTRIBUTES.test(attribute)) element.setAttribute(attribute, attribute === 'href' ? '#' : value);
    element.append(...fields(children).map((child) => build(child, depth + 1)));
    return element;
  };
  return fields(snapshot).map((node) => build(node, 1));
}

/** A list read from the record (of `length` items, when given). */
function fields(value: unknown, length?: number): unknown[] {
  if (!Array.isArray(value) || (length !== undefined && value.length !== length)) throw new TypeError('Not a snapshot.');
  return value;
}

/** A text read from the record. */
function textOf(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError('Not a snapshot.');
  return value;
}
