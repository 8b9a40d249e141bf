// Removes IndexedDB from the page, then loads the widget: imports run in order, so this module
// must be imported before anything that loads the widget.
import './remove-indexeddb.js';
export { assert, equal, mount, unmountAll, waitForReplies, bubbleTexts, readFirstPaintRecord } from './helpers.js';
