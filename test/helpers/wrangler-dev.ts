// Starts a Worker with `wrangler dev` (workerd underneath, as on Cloudflare) on free loopback
// ports, with its local state in a temporary folder, and stops it with its workerd.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { collectOutput, killGroup, stopProcessGroup } from './process-group.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wrangler = join(root, 'node_modules/.bin/wrangler');

export interface RunningWorker {
  origin: string;
  output: () => string;
  stop(): Promise<void>;
}

export interface WranglerDevOptions {
  /** Local state (Durable Object storage) kept here and not removed on stop, to start again on it. */
  persistTo?: string;
  /** `--var NAME:VALUE` for each. */
  vars?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

/** What wrangler says when a port it was given, or one workerd chose, was taken before it bound it. */
const PORT_TAKEN = /Address already in use|The Workers runtime failed to start/;

export async function startWranglerDev(config: string, options: WranglerDevOptions = {}): Promise<RunningWorker> {
  if (!existsSync(wrangler)) throw new Error('wrangler is not installed: run `npm install` (it is a devDependency).');
  const state = options.persistTo ?? mkdtempSync(join(tmpdir(), 'chatbot-wrangler-'));
  // Another test may bind a probed port first: start again on new ones, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(config, options, state);
    } catch (error) {
      if (attempt >= 4 || !PORT_TAKEN.test(String(error))) {
        if (!options.persistTo) rmSync(state, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

async function startOnce(config: string, options: WranglerDevOptions, state: string): Promise<RunningWorker> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const vars = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    wrangler,
    [
      'dev',
      '--config',
      config,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspectorPort),
      '--persist-to',
      state,
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
      ...vars,
    ],
    {
      cwd: options.cwd ?? root,
      // Its own process group, so stopping it stops the workerd it started too.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // No metrics and no download of the Request.cf sample: the tests stay off the network.
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true', NO_COLOR: '1' },
    },
  );
  const output = collectOutput(child);
  const stop = async () => {
    await stopProcessGroup(child);
    if (!options.persistTo) rmSync(state, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  // --log-level warn hides the "Ready on" line: poll the port instead.
  while (true) {
    if (child.exitCode !== null) {
      killGroup(child);
      throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output()}`);
    }
    try {
      await fetch(origin, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`wrangler dev did not answer on ${origin} within ${timeoutMs / 1000} s:\n${output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return { origin, output, stop };
}
