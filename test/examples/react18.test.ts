// examples/react with React 18: type-checked, built and driven in Chromium against the handler (support/framework-example.ts).
import { testExample } from './support/framework-example.js';

testExample('react18');
