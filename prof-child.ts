import { serveSendsChild } from './bench/support/handler-sends.js';
process.on('SIGTERM', () => process.exit(0));
void serveSendsChild(process.argv.slice(2));
