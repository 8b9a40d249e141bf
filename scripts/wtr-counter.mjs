// A @web/test-runner reporter that counts passed and failed browser tests and writes the
// figures as JSON to the file named by WTR_COUNT_FILE, for scripts/test.mjs to sum.
import { writeFileSync } from 'node:fs';

function count(suite, totals) {
  for (const test of suite.tests) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites) count(child, totals);
}

export function countReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        if (session.testResults) count(session.testResults, totals);
        // A file that failed to load or threw outside a test has no test results: count it.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed++;
      }
      if (process.env.WTR_COUNT_FILE) writeFileSync(process.env.WTR_COUNT_FILE, JSON.stringify(totals));
    },
  };
}
