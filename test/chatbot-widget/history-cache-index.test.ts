// The cache's index (which sessions are cached, how many messages each, which is current) is one
// IndexedDB record that every save changes. Saves run side by side (the search's prefetch of
// listed sessions, the conversation shown, another tab): each change is made in one transaction,
// so none is lost to another written meanwhile. Exercised on the real cache in IndexedDB.
import { HistoryCache } from '../../src/chatbot-widget/conversation/history-cache.js';
import type { CachedConversation } from '../../src/chatbot-widget/conversation/cached-conversation.js';
import { openStorage } from '../../src/chatbot-widget/io/storage.js';
import { equal, fakeMessage, freshNamespace, idbGet, idbSet, idbStore } from '../helpers/browser/helpers.js';

function conversation(sessionId: string, userId: string) {
  return { sessionId, messages: [0, 1, 2].map((i) => fakeMessage(i, sessionId, userId)) as CachedConversation['messages'], totalItems: 3 };
}

describe('the history cache index under concurrent saves', () => {
  it('keeps every session saved at once, and the current one set meanwhile', async () => {
    const base = `https://example.test/${freshNamespace('index')}`;
    const cache = new HistoryCache(openStorage());
    cache.use(base, 'user-1');
    const ids = Array.from({ length: 8 }, (_, i) => `session-${i}`);
    await Promise.all([...ids.map((id) => cache.saveConversation(conversation(id, 'user-1'))), cache.setCurrentSessionId('session-3')]);

    const index = await idbGet<{ current?: string; entries: Record<string, [number, number]> }>(`index|${base}|user-1|`, idbStore);
    equal(
      Object.keys(index?.entries ?? {})
        .sort()
        .join(' '),
      ids.join(' '),
      'every session in the index',
    );
    equal(index?.current, 'session-3', 'the current session kept');
    equal((await cache.loadConversations()).length, ids.length, 'every conversation stored');
  });

  it('reads an index line of another shape as the oldest and fullest: it goes first, and the cache stays in IndexedDB', async () => {
    const base = `https://example.test/${freshNamespace('odd-index')}`;
    const key = `index|${base}|user-1|`;
    // Written by something else on the origin: a line that is a pair of numbers, and three that are not.
    await idbSet(
      key,
      { entries: { 'session-kept': [1, 3], 'session-null': null, 'session-text': 'x', 'session-object': { held: 5 } } },
      idbStore,
    );
    const storage = openStorage();
    const cache = new HistoryCache(storage);
    cache.use(base, 'user-1');
    await cache.saveConversation(conversation('session-new', 'user-1'));

    equal(storage.persistent, true, 'still IndexedDB: an odd line does not move the tab to memory');
    const index = await idbGet<{ entries: Record<string, unknown> }>(key, idbStore);
    // Three odd lines weigh 2,000 messages each: with the 6 real ones, one more than the cache
    // holds, so the first odd line (of the oldest, all three) went, and nothing else.
    equal(Object.keys(index?.entries ?? {}).join(' '), 'session-kept session-text session-object session-new', 'the index after the save');
    equal((index?.entries['session-new'] as number[])[1], 3, 'the new session holds its 3 messages');
  });
});
