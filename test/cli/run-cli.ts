// Runs the real `chatbot-api` command with an environment holding only what the test gives (no
// CHATBOT_* of the machine leaks in). By default in this process, through `runChatbotApi`, the
// function the command's entry calls with its arguments, environment and output streams: the same
// parsing, requests and exit codes without a new Node process per case. `tsx` and `npm` spawn the
// command as a user runs it (`npm run api`), for the tests that the entry itself works.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runChatbotApi } from '../../src/cli/api-cli.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type CliRun = 'in-process' | 'tsx' | 'npm';

export async function runCli(args: string[], env: Record<string, string> = {}, run: CliRun = 'in-process'): Promise<CliResult> {
  if (run === 'in-process') {
    let stdout = '';
    let stderr = '';
    const code = await runChatbotApi(args, env, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  }
  const [file, argv] =
    run === 'npm'
      ? ['npm', ['run', '--silent', 'api', '--', ...args]]
      : [process.execPath, ['--import', 'tsx', 'src/cli/chatbot-api.ts', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
