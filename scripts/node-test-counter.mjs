// A node:test reporter that counts passed and failed tests (not suites) and writes the figures
// as JSON, so scripts/test.mjs can sum them with the browser suite's and name every failure again
// at the very end of the run, where a CI log's tail shows it.
/** How many lines of a failure's message are named again at the end. */
const ERROR_LINES = 12;

export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  const noteFailure = (data) => {
    const error = data.details?.error?.cause ?? data.details?.error;
    // The message's first lines (a Playwright error's call log says what it waited for) and
    // where in the test it failed.
    const message = String(error?.message ?? '')
      .split('\n')
      .slice(0, ERROR_LINES);
    const where = String(error?.stack ?? '')
      .split('\n')
      .find((line) => /\/test\/.*\.ts:\d+/.test(line));
    failures.push({ file: data.file, name: data.name, error: [...message, ...(where ? [where.trim()] : [])].join('\n') });
  };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') {
      // A suite that fails outside its tests (a hook, a load error) still counts as a failure.
      if (event.type === 'test:fail' && event.data.details?.error?.failureType !== 'subtestsFailed') {
        failed++;
        noteFailure(event.data);
      }
      continue;
    }
    if (event.data.skip || event.data.todo) skipped++;
    else if (event.type === 'test:pass') passed++;
    else {
      failed++;
      noteFailure(event.data);
    }
  }
  yield JSON.stringify({ passed, failed, skipped, failures }) + '\n';
}
