#!/usr/bin/env node
// `chatbot-api`: the command-line client of the chatbot Developer API.
// `npm run --silent api -- <command> [flags]`, or the `chatbot-api` bin once built.
import { runChatbotApi } from './api-cli.js';

process.exitCode = await runChatbotApi(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
