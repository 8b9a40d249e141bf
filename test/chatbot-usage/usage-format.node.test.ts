// How <chatbot-usage> writes its figures: numbers in the page's language, nouns English and in
// their English plural ("1 user", "2 users"), months and times in UTC.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UsageFormat } from '../../src/chatbot-usage/usage-format.js';

describe('UsageFormat', () => {
  it('counts with the noun in its English plural: one for 1, the plural for 0, 2 and 1.5', () => {
    const format = new UsageFormat('en');
    assert.equal(format.count(1, 'user', 'users'), '1 user');
    assert.equal(format.count(0, 'user', 'users'), '0 users');
    assert.equal(format.count(2, 'session', 'sessions'), '2 sessions');
    assert.equal(format.count(1.5, 'message', 'messages'), '1.5 messages');
  });

  it("writes the figure in the page's language and keeps the English plural rules", () => {
    const german = new UsageFormat('de');
    assert.equal(german.count(1234, 'message', 'messages'), '1.234 messages');
    assert.equal(german.count(1, 'message', 'messages'), '1 message');
    // A language whose own rules differ (Arabic: 2 is "two", 3 to 10 "few") changes no noun.
    const arabic = new UsageFormat('ar-u-nu-latn');
    assert.equal(arabic.count(2, 'user', 'users'), '2 users');
    assert.equal(arabic.count(1, 'user', 'users'), '1 user');
  });

  it('an invalid language tag writes English figures rather than failing', () => {
    assert.equal(new UsageFormat('not a tag!').count(1000, 'user', 'users'), '1,000 users');
  });

  it('months and times are UTC, whatever the clock of the viewer', () => {
    const format = new UsageFormat('en');
    assert.equal(format.monthLong('2025-03'), 'March 2025');
    assert.equal(format.monthShort('2025-12'), 'Dec');
    // (Some ICU versions put a narrow no-break space before PM.)
    assert.equal(format.time('2025-03-31T23:30:00Z').replace(/\u202f/g, ' '), 'Mar 31, 2025, 11:30 PM UTC');
    assert.equal(format.time('not a time'), '');
  });
});
