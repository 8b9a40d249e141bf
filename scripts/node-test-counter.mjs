// A node:test reporter that counts passed and failed tests (not suites) and writes the figures
// as JSON, so scripts/test.mjs can sum them with the browser suite's and name every failure again
// at the very end of the run, where a CI log's tail shows it.
export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  const noteFailure = (data) =>
    failures.push({
      file: data.file,
      name: data.name,
      error: String(data.details?.error?.cause?.message ?? data.details?.error?.message ?? '').split('\n')[0],
    });
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
