// Starts `npm start`'s server (demo/server.ts) as a child process on a free port, with its own
// data folder, and resolves once it printed its address. Used by the end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningStack {
  origin: string;
  adminToken: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The environment without the stack's own variables: a developer who exported the README's
 * CHATBOT_API_* line (or an OpenAI key for the emulator) must still test against the built-in
 * emulator with its default replies.
 */
function projectFreeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CHATBOT_|OPENAI_)/.test(name) && name !== 'PORT' && name !== 'HOST'),
  );
}

export async function startStack(env: Record<string, string> = {}): Promise<RunningStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chatbot-stack-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
    cwd: root,
    env: { ...projectFreeEnv(), PORT: '0', CHATBOT_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up in 90 s:\n${output}`)), 90_000);
    const check = () => {
      const match = /Demo site\s+(http:\/\/localhost:\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  const adminToken = /#token=([A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';

  return {
    origin,
    adminToken,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
