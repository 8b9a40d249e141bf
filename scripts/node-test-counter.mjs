// A node:test reporter that counts passed and failed tests (not suites) and writes the figures
// as JSON, so scripts/test.mjs can sum them with the browser suite's.
export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') {
      // A suite that fails outside its tests (a hook, a load error) still counts as a failure.
      if (event.type === 'test:fail' && event.data.details?.error?.failureType !== 'subtestsFailed') failed++;
      continue;
    }
    if (event.data.skip || event.data.todo) skipped++;
    else if (event.type === 'test:pass') passed++;
    else failed++;
  }
  yield JSON.stringify({ passed, failed, skipped }) + '\n';
}
