// examples/vue: type-checked, built and driven in Chromium against the handler (support/framework-example.ts).
import { testExample } from './support/framework-example.js';

testExample('vue');
