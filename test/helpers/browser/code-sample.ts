/** The reply the backend gives to `long-code-line` (backend.ts), and its long line, for the code block tests. */

/** A code line of 120 characters, its end marked: what must be reachable by scrolling. */
export const LONG_CODE_LINE = `${'0123456789'.repeat(11)}LINE-ENDS!`;
/** A reply with a short first code line (where a button over the code would sit) and the long one. */
export const LONG_CODE_REPLY = ['Run this:', '', '```js', 'go();', LONG_CODE_LINE, '```', '', 'Done.'].join('\n');
