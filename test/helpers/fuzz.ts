// Settings shared by every fuzz test (files named `*-fuzz.test.ts`): generated cases, seeded and
// reproducible. `npm test` runs a short pass; `npm run fuzz` runs the same properties long
// (CHATBOT_FUZZ=long). A failure prints its seed and path: run again with CHATBOT_FUZZ_SEED=<seed>
// (and CHATBOT_FUZZ_PATH=<path>) to replay exactly that case.
import type { Parameters } from 'fast-check';

/** Cases per property in a short run (`npm test`) and a long one (`npm run fuzz`). */
export const SHORT_RUNS = 60;
export const LONG_RUNS = 5_000;

/** The variables a fuzz run is set with (CHATBOT_FUZZ, CHATBOT_FUZZ_SEED, CHATBOT_FUZZ_PATH). */
export type FuzzEnv = Partial<Record<'CHATBOT_FUZZ' | 'CHATBOT_FUZZ_SEED' | 'CHATBOT_FUZZ_PATH', string>>;

/** fast-check parameters for one property: `runs` overrides the short count for costly properties. */
export function fuzzParameters<T>(runs = SHORT_RUNS): Parameters<T> {
  return fuzzParametersFrom(process.env, runs);
}

/**
 * {@link fuzzParameters} from the given variables: a browser test gets them from the test
 * runner's process (the `fuzz-env` command of web-test-runner.config.mjs).
 */
export function fuzzParametersFrom<T>(env: FuzzEnv, runs = SHORT_RUNS): Parameters<T> {
  const long = env.CHATBOT_FUZZ === 'long';
  const seed = env.CHATBOT_FUZZ_SEED;
  const path = env.CHATBOT_FUZZ_PATH;
  return {
    numRuns: long ? Math.max(LONG_RUNS, runs) : runs,
    // A fixed seed in a short run, so CI always tries the same cases; a fresh one in a long run.
    seed: seed !== undefined ? Number(seed) : long ? Date.now() : 20261127,
    ...(path !== undefined ? { path } : {}),
    endOnFailure: true,
  };
}
