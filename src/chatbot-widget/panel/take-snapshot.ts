/**
 * Takes the panel's snapshot (panel-snapshot.ts): the panel's children as a tree of elements,
 * attributes and text, for the first-paint record. Within the bounds the next load reads it with:
 * a panel showing more nodes, or nested deeper, is not kept.
 */
import { MAX_SNAPSHOT_DEPTH, MAX_SNAPSHOT_NODES, type SnapshotNode, type StoredSnapshot } from '../panel-snapshot.js';

/** The panel's children as a snapshot, with the nodes `seen` (the first paint lays out no more than it shows); undefined past the bounds. */
export function snapshotOf(panel: Element, seen: (node: Node) => boolean): StoredSnapshot | undefined {
  let count = 0;
  let within = true;
  /** A node as stored: elements and text (comments, such as Lit's markers, as empty text). */
  const toTree = (node: Node, depth: number): SnapshotNode => {
    within &&= ++count <= MAX_SNAPSHOT_NODES && depth <= MAX_SNAPSHOT_DEPTH;
    if (!within) return '';
    return node instanceof Element
      ? [
          node.namespaceURI!,
          node.localName,
          [...node.attributes].map((a) => [a.name, a.value]),
          [...node.childNodes].filter(seen).map((child) => toTree(child, depth + 1)),
        ]
      : node instanceof Text
        ? node.data
        : '';
  };
  const tree = [...panel.childNodes].map((node) => toTree(node, 1));
  return within ? tree : undefined;
}
