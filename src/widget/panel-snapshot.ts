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
 * It is stored as a tree (elements, attributes, text) and rebuilt with the DOM's methods, never
 * parsed from HTML: a page with Trusted Types and a strict Content Security Policy allows it.
 * Rebuilt, it holds only the elements and attributes the panel draws with (a record someone else
 * wrote can add no script, frame, image, custom element or event handler). Beside it, the
 * panel's styles (their code is in the chunk), adopted as a constructed sheet; they apply inside
 * the widget only, and give way to the panel's own before it draws anything of its own.
 */
import { endpointBase } from './endpoint-base.js';
import { attempt, paintKey, visitorKey } from './local-records.js';

/** An element as `[namespace, name, attributes, children]`, or text. */
export type SnapshotNode = string | [string, string, [string, string][], SnapshotNode[]];

/** A snapshot as the record carries it: the panel's styles and its children. */
export type StoredSnapshot = [css: string, nodes: SnapshotNode[]];

/** The elements the panel draws in view (HTML and SVG; the history pane is never in a snapshot): no other is rebuilt. */
const ELEMENTS = /^(a|blockquote|br|button|code|del|div|em|form|h2|hr|input|li|ol|p|path|pre|rect|span|strong|svg|textarea|time|ul)$/;
/** The attributes that make its look: no other is rebuilt (a link's address becomes `#`). */
const ATTRIBUTES =
  /^(class|part|id|hidden|disabled|placeholder|start|type|dir|href|aria-(hidden|pressed)|data-[a-z-]+|viewBox|d|x|y|rx|width|height)$/;

/**
 * The endpoint's snapshot, if its record is the stored visitor's, read synchronously: the panel's
 * styles and its children, built. Undefined too for an `endpoint` that is no URL.
 */
export function readSnapshot(endpoint: string): [CSSStyleSheet, Node[]] | undefined {
  return attempt((storage) => {
    const base = endpointBase(endpoint);
    const record = JSON.parse(storage.getItem(paintKey(base))!) as { userId?: string; snapshot?: StoredSnapshot };
    if (!record.snapshot || record.userId !== storage.getItem(visitorKey(base))) return undefined;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(record.snapshot[0]);
    return [sheet, record.snapshot[1].map(buildNode)];
  });
}

/** The panel's children as a snapshot, with the nodes `seen` (the first paint lays out no more than it shows). */
export function snapshotOf(panel: Element, css: string, seen: (node: Node) => boolean): StoredSnapshot {
  /** A node as stored: elements and text (comments, such as Lit's markers, as empty text). */
  const toTree = (node: Node): SnapshotNode =>
    node instanceof Element
      ? [
          node.namespaceURI!,
          node.localName,
          [...node.attributes].map((a) => [a.name, a.value]),
          [...node.childNodes].filter(seen).map(toTree),
        ]
      : node instanceof Text
        ? node.data
        : '';
  return [css, [...panel.childNodes].map(toTree)];
}

/** A stored node built again, of the panel's elements and attributes only. */
function buildNode(node: SnapshotNode): Node {
  if (typeof node === 'string') return new Text(node);
  const element = document.createElementNS(node[0], node[1]);
  // The name as created: a prefix (`x:script`) is not part of it.
  if (!ELEMENTS.test(element.localName)) return new Text();
  for (const [name, value] of node[2]) if (ATTRIBUTES.test(name)) element.setAttribute(name, name === 'href' ? '#' : value);
  element.append(...node[3].map(buildNode));
  return element;
}
