// Both sides of running store checks in another runtime's process (Deno, Bun, workerd's Worker
// answers aside): the runner prints one JSON line per check and a last `{ "done": true }`; the
// Node test reads them back and makes each check one test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

export interface CaseOutcome {
  name: string;
  ok: boolean;
  error?: string;
}

/** In the runner: runs one check and prints its outcome, never throwing, so every check reports. */
export async function reportCase(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    console.log(JSON.stringify({ name, ok: true }));
  } catch (error) {
    console.log(JSON.stringify({ name, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
  }
}

/** In the runner, last: tells the Node side that every check has reported. */
export function reportDone(): void {
  console.log(JSON.stringify({ done: true }));
}

/** In the Node test: runs the runner to its end and returns each check's outcome by name. */
export async function runCases(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<Map<string, CaseOutcome>> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CaseOutcome & { done?: boolean });
  assert.ok(lines.at(-1)?.done, `${command} did not finish the checks (exit ${code}):\n${stdout}\n${stderr}`);
  return new Map(lines.filter((line) => line.name).map((line) => [line.name, line]));
}

/** In the Node test: the check passed in the other runtime. */
export function assertCasePassed(outcomes: Map<string, CaseOutcome>, name: string): void {
  const outcome = outcomes.get(name);
  assert.ok(outcome, `the runtime reported nothing for "${name}"`);
  assert.ok(outcome.ok, outcome.error);
}
