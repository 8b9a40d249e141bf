// Where tests keep what is costly to make and the same from one run to the next (the packed
// tarball, TypeScript's incremental state), each under a key that changes with what it was made
// from. Removing the folder costs one slower run, nothing else.
import { fileURLToPath } from 'node:url';

export const testCache = fileURLToPath(new URL('../../node_modules/.cache/chatbot-widget-tests', import.meta.url));
