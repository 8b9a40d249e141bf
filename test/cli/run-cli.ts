// Spawns the real `chatbot-api` command through tsx, the way `npm run api` does, with an
// environment holding only what the test gives (no CHATBOT_* of the machine leaks in).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}, command: 'tsx' | 'npm' = 'tsx'): Promise<CliResult> {
  const [file, argv] =
    command === 'npm'
      ? ['npm', ['run', '--silent', 'api', '--', ...args]]
      : [process.execPath, ['--import', 'tsx', 'src/cli/chatbot-api.ts', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(file as string, argv as string[], {
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
