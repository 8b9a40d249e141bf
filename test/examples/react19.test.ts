// examples/react with React 19: built and driven in Chromium against the handler (support/framework-example.ts);
// `npm run typecheck` checks its types.
import { testExample } from './support/framework-example.js';

testExample('react19');
