// A real, throwaway redis-server for the tests of the Redis store: on a free loopback port, with
// nothing written to disk, stopped by the test. A machine without redis-server fails the test
// with the install line; the Redis store's tests never pass by skipping.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const REDIS_INSTALL_HINT =
  'redis-server is not installed, and the Redis store is tested against a real one: install it (Debian/Ubuntu: `apt-get install -y redis-server`; macOS: `brew install redis`) or put it on PATH.';

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server (idempotent): what a Redis that went down looks like to its clients. */
  stop(): Promise<void>;
  /** Starts an empty server again on the same port, after `stop`: Redis is back. */
  restart(): Promise<void>;
}

function start(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
}

export async function startRedisServer(): Promise<RunningRedis> {
  if (spawnSync('redis-server', ['--version']).error) throw new Error(REDIS_INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;
  // Another test may take the probed port before redis-server binds it: try a few.
  for (let attempt = 0; !child; attempt++) {
    port = await freePort();
    try {
      child = await start(port, dir);
    } catch (error) {
      if (attempt >= 4 || !/Address already in use/i.test(String(error))) throw error;
    }
  }
  let running = child;
  const kill = async () => {
    if (running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await kill();
      mkdirSync(dir, { recursive: true });
      running = await start(port, dir);
    },
  };
}
