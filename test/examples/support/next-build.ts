// `next build` of a Next.js project, as a build machine runs it: no CHATBOT_* variables in its
// environment (the handler is created on the first request, not at module load).
import { spawn } from 'node:child_process';
import { tool } from './run-example.js';

export const NEXT_BUILD_TIMEOUT_MS = 300_000;

/** The `next` binary of the root devDependencies. */
export const nextBinary = () => tool('node_modules/.bin/next', 'run `npm install` (the "next" devDependency).');

/** Runs `next build` in `folder` with an environment free of CHATBOT_*; resolves with its output. */
export function nextBuild(folder: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NEXT_TELEMETRY_DISABLED: '1',
      CI: 'true',
    };
    const child = spawn(nextBinary(), ['build'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), NEXT_BUILD_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`next build failed (${code}) in ${folder} with no CHATBOT_* set:\n${output}`));
    });
  });
}
