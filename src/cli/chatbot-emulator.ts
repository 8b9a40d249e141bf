#!/usr/bin/env node
/**
 * `chatbot-emulator` (`npm run --silent emulator -- [flags]`): the built-in emulator of the
 * upstream Developer API on its own port, until SIGINT or SIGTERM. The command itself is
 * emulator-cli.ts.
 */
import { runChatbotEmulator } from './emulator-cli.js';

const outcome = await runChatbotEmulator(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
if (typeof outcome === 'number') {
  // A failure exits at once, whatever the emulator's modules still hold open; --help ends by itself.
  if (outcome !== 0) process.exit(outcome);
} else {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void outcome.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
