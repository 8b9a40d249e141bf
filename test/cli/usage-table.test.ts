import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatUsageTable } from '../../src/cli/usage-table.js';

test('an empty range says so instead of printing a bare header', () => {
  assert.equal(formatUsageTable([]), 'No months in this range.\n');
});

test('a single month has no total row; wide numbers widen their column', () => {
  const table = formatUsageTable([
    { month: '2024-12', messageCount: 12345678, userMessageCount: 1, distinctUsers: 2, distinctSessions: 3, tokenTotal: 4 },
  ]);
  assert.equal(
    table,
    ['month      messages  user messages  users  sessions  tokens', '2024-12  12,345,678              1      2         3       4', ''].join(
      '\n',
    ),
  );
});
