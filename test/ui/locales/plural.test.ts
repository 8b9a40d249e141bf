// Counted texts pick the form each language's grammar asks for (through Intl.PluralRules) and
// show the number as the language writes it; a host's rewording of a counted text wins for
// every count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plural } from '../../../src/ui/format-text.js';
import { withOverrides, type WidgetStrings } from '../../../src/ui/strings.js';
import { strings as defaultStrings } from '../../../src/ui/locales/en.js';
import { loadLocale } from '../../../src/ui/locales/index.js';

const ar = (await loadLocale('ar')).strings;
const he = (await loadLocale('he')).strings;
const fr = (await loadLocale('fr')).strings;
const de = (await loadLocale('de')).strings;
const ja = (await loadLocale('ja')).strings;

test('English: one message, 0 and 2 messages, thousands grouped', () => {
  assert.equal(plural(defaultStrings, 'sessionMessages', 1, 'en'), '1 message');
  assert.equal(plural(defaultStrings, 'sessionMessages', 0, 'en'), '0 messages');
  assert.equal(plural(defaultStrings, 'sessionMessages', 2, 'en'), '2 messages');
  assert.equal(plural(defaultStrings, 'searchResults', 1234, 'en-US'), '1,234 results');
  assert.equal(plural(defaultStrings, 'unreadBadge', 1, 'en'), '1 unread reply');
});

test('other placeholders are filled beside {count}', () => {
  assert.equal(plural(defaultStrings, 'quotaLeft', 1, 'en', { time: '14:00' }), '1 message left today; more at 14:00.');
  assert.equal(plural(defaultStrings, 'quotaLeft', 3, 'en', { time: '14:00' }), '3 messages left today; more at 14:00.');
  assert.equal(plural(de, 'quotaLeft', 2, 'de', { time: '14:00' }), 'Heute noch 2 Nachrichten; weitere ab 14:00.');
});

test('numbers are written as the language writes them', () => {
  assert.equal(plural(de, 'sessionMessages', 1234, 'de'), '1.234 Nachrichten');
  assert.equal(plural(fr, 'sessionMessages', 1234, 'fr'), '1\u202F234 messages');
});

test('French treats 0 like 1', () => {
  assert.equal(plural(fr, 'unreadBadge', 0, 'fr'), '0 réponse non lue');
  assert.equal(plural(fr, 'unreadBadge', 2, 'fr'), '2 réponses non lues');
});

test('Arabic uses all six forms', () => {
  assert.equal(plural(ar, 'sessionMessages', 0, 'ar'), 'لا توجد رسائل');
  assert.equal(plural(ar, 'sessionMessages', 1, 'ar'), 'رسالة واحدة');
  assert.equal(plural(ar, 'sessionMessages', 2, 'ar'), 'رسالتان');
  assert.equal(plural(ar, 'sessionMessages', 3, 'ar'), `${new Intl.NumberFormat('ar').format(3)} رسائل`);
  assert.equal(plural(ar, 'sessionMessages', 11, 'ar'), `${new Intl.NumberFormat('ar').format(11)} رسالة`);
  assert.equal(plural(ar, 'searchResults', 100, 'ar'), `${new Intl.NumberFormat('ar').format(100)} نتيجة`);
});

test('Hebrew has its own words for one and two', () => {
  assert.equal(plural(he, 'searchResults', 1, 'he'), 'תוצאה אחת');
  assert.equal(plural(he, 'searchResults', 2, 'he'), 'שתי תוצאות');
  assert.equal(plural(he, 'searchResults', 5, 'he'), '5 תוצאות');
});

test('Japanese has one form for every count', () => {
  assert.equal(plural(ja, 'searchResults', 1, 'ja'), '1件見つかりました');
  assert.equal(plural(ja, 'searchResults', 20, 'ja'), '20件見つかりました');
});

test('a malformed locale formats as English instead of throwing', () => {
  assert.equal(plural(defaultStrings, 'sessionMessages', 1, 'not a tag'), '1 message');
});

test('withOverrides lays a host text over the language and keeps the rest', () => {
  const merged = withOverrides(de, { heading: 'Fragen Sie uns' });
  assert.equal(merged.heading, 'Fragen Sie uns');
  assert.equal(merged.send, de.send);
  assert.equal(de.heading, 'Chatten Sie mit uns', 'the language itself is unchanged');
});

test('withOverrides: a reworded counted text applies to every count, unless its variants come too', () => {
  const reworded = withOverrides(defaultStrings, { sessionMessages: '{count} chats' });
  assert.equal(plural(reworded, 'sessionMessages', 1, 'en'), '1 chats');
  assert.equal(reworded.sessionMessages_one, undefined);
  const withVariant = withOverrides(defaultStrings, { sessionMessages: '{count} chats', sessionMessages_one: 'one chat' });
  assert.equal(plural(withVariant, 'sessionMessages', 1, 'en'), 'one chat');
  assert.equal(plural(withVariant, 'sessionMessages', 4, 'en'), '4 chats');
  // A variant alone refines the language's own wording.
  const variantOnly = withOverrides(defaultStrings, { unreadBadge_one: 'a new reply' });
  assert.equal(plural(variantOnly, 'unreadBadge', 1, 'en'), 'a new reply');
  assert.equal(plural(variantOnly, 'unreadBadge', 2, 'en'), '2 unread replies');
});

test('withOverrides ignores what is not text or not a known key', () => {
  const hostile = { heading: { _$litType$: 1 }, send: null, openChat: 42, nonsense: 'x', sessionMessages_seven: 'x', retry: 'Encore' };
  const merged = withOverrides(defaultStrings, hostile);
  assert.deepEqual(merged, { ...defaultStrings, retry: 'Encore' });
  for (const bad of [null, undefined, 'heading', 7, []]) {
    assert.deepEqual(withOverrides(defaultStrings, bad), defaultStrings);
  }
  const typed: Partial<WidgetStrings> = { send: 'Go' };
  assert.equal(withOverrides(defaultStrings, typed).send, 'Go');
});
