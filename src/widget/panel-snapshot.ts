/**
 * The panel's snapshot: what the open panel showed when its page was last hidden (a reload, a
 * link followed, another tab), kept in localStorage so that the next load paints it in the
 * element's own first render. The panel's code is a chunk of its own (the first load stays
 * small); even from the HTTP cache it is drawn about 24 ms after the element is created, more
 * than the one frame (16 ms) a reload should take. The snapshot is painted in that frame.
 *
 * It is a picture, not the panel: inert (no focus, no clicks, left out by assistive technology,
 * which hears the panel itself a moment later), replaced as soon as the panel's code has drawn.
 * So it is kept only when it is what that code draws first: the current conversation at its end,
 * nothing open over it; and it goes whenever the first-paint record is written or removed (a new
 * message, another conversation, another visitor, `reset()`). A snapshot never shows what the
 * panel would not, nor anyone's but the stored visitor's.
 *
 * It is stored as a tree (elements, attributes, text) and rebuilt with the DOM's methods, never
 * parsed from HTML: a page with Trusted Types and a strict Content Security Policy allows it.
 * Beside it, the panel's styles (their code is in the chunk), adopted as a constructed sheet.
 */

import { endpointBase } from './endpoint-base.js';

/** An element as `[namespace, name, attributes, children]`, or text. */
export type SnapshotNode = string | [string, string, [string, string][], SnapshotNode[]];

/** The endpoint's stored visitor (their user id), beside the first-paint record. */
export const visitorKey = (base: string) => `chatbot-widget|visitor|${base}`;
const snapshotKey = (base: string) => `chatbot-widget|snapshot|${base}`;

/**
 * Longest snapshot kept, in characters of JSON: the panel's styles (about 8,000) and what it
 * shows, a few long answers. localStorage is the site's too (about 5 MB an origin).
 */
const MAX_SNAPSHOT_CHARS = 65_536;

/**
 * Runs a localStorage call. Where localStorage is missing or refused (sandboxed frames, disabled
 * storage, a full quota), or a record is unreadable, there is simply nothing: no error for the chat.
 */
export function attempt<T>(action: (storage: Storage) => T): T | undefined {
  try {
    return action(localStorage);
  } catch {
    return undefined;
  }
}

/**
 * The endpoint's snapshot, if it was taken for the endpoint's stored visitor, read synchronously:
 * the panel's styles and its children, built. Undefined too for an `endpoint` that is no URL.
 */
export function readSnapshot(endpoint: string): [CSSStyleSheet, Node[]] | undefined {
  return attempt((storage) => {
    const base = endpointBase(endpoint);
    const [visitor, css, nodes] = JSON.parse(storage.getItem(snapshotKey(base))!) as [string, string, SnapshotNode[]];
    if (visitor !== storage.getItem(visitorKey(base))) return undefined;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return [sheet, nodes.map(buildNode)];
  });
}

/** No snapshot for the endpoint (the record it shows changed, or the panel is not as it draws first). */
export function dropSnapshot(base: string) {
  attempt((storage) => storage.removeItem(snapshotKey(base)));
}

/**
 * Stores the panel's children as the endpoint's snapshot, for its stored visitor: of the nodes
 * in it, those `seen` (the first paint lays out no more than it shows). Too large, none is kept.
 */
export function saveSnapshot(base: string, panel: Element, css: string, seen: (node: Node) => boolean) {
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
  dropSnapshot(base);
  attempt((storage) => {
    const visitor = storage.getItem(visitorKey(base));
    const text = JSON.stringify([visitor, css, [...panel.childNodes].map(toTree)]);
    if (visitor && text.length <= MAX_SNAPSHOT_CHARS) storage.setItem(snapshotKey(base), text);
  });
}

/**
 * A stored node built again. What could act by itself if the storage were written by someone
 * else is left out (the panel has none of it): scripts, frames and plugins, event handler
 * attributes, and `style` attributes, which a strict Content Security Policy refuses.
 */
function buildNode(node: SnapshotNode): Node {
  if (typeof node === 'string') return new Text(node);
  if (/^(script|i?frame|object|embed)$/i.test(node[1])) return new Text();
  const element = document.createElementNS(node[0], node[1]);
  for (const [name, value] of node[2]) if (!/^(on|style$)/i.test(name)) element.setAttribute(name, value);
  element.append(...node[3].map(buildNode));
  return element;
}
