// The cache's index (which sessions are cached, how many messages each, which is current) is one
// IndexedDB record that every save changes. Saves run side by side (the search's prefetch of
// listed sessions, the conversation shown, another tab): each change is made in one transaction,
// so none is lost to another written meanwhile. Exercised on the real cache in IndexedDB.
import { HistoryCache } from '../../src/chatbot-widget/conversation/history-cache.js';
import type { CachedConversation } from '../../src/chatbot-widget/conversation/cached-conversation.js';
import { openStorage } from '../../src/chatbot-widget/io/storage.js';
import { equal, fakeMessage, freshNamespace, idbGet, idbStore } from '../helpers/browser/helpers.js';

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
});
