// What the device keeps before an identity is known: nobody's records. A rating given or a
// conversation cached then is not written under any name (no empty namespace such as
// `feedback|||` or `conversation|||` shared by every endpoint), and once an identity is known its
// records are kept under it alone. On the real IndexedDB storage.
import { VisitorRecords } from '../../src/chatbot-widget/conversation/visitor-records.js';
import { openStorage } from '../../src/chatbot-widget/io/storage.js';
import type { CachedConversation } from '../../src/chatbot-widget/conversation/cached-conversation.js';
import { equal, freshNamespace } from '../helpers/browser/helpers.js';

describe('visitor records before and after an identity', () => {
  it('no identity: the ratings have no namespace and nothing is stored; an identity keeps its own', async () => {
    const storage = openStorage();
    const records = new VisitorRecords(storage, () => {});
    records.none();
    equal(records.feedback.namespace, '', 'no namespace without an identity');
    await records.feedback.set('message-before-identity', 'up');
    // Every endpoint a test uses is a URL: a key with an empty endpoint is one written under nobody's name.
    equal((await storage.list('feedback||')).length, 0, 'nothing written under nobody’s name');

    const base = `https://example.test/${freshNamespace('records')}`;
    records.useHistory(base, 'visitor-1');
    equal(records.feedback.namespace, `feedback|${base}|visitor-1|`);
    await records.feedback.set('message-1', 'down');
    equal(JSON.stringify((await storage.list<{ messageId: string }>(`feedback|${base}|`)).map((r) => r.messageId)), '["message-1"]');
    await records.forget(base);
  });

  it('no identity: the history cache writes nothing and reads nothing; an identity keeps its own', async () => {
    const storage = openStorage();
    const records = new VisitorRecords(storage, () => {});
    const conversation = {
      sessionId: 'session-before-identity',
      messages: [{ id: 'm1', sessionId: 'session-before-identity', senderType: 'User', text: 'hello', createdAt: '2026-01-01T00:00:00Z' }],
      totalItems: 1,
    } as unknown as CachedConversation;
    records.none();
    await records.cache.saveConversation(conversation);
    await records.cache.setCurrentSessionId(conversation.sessionId);
    await records.cache.saveFirstLines({ [conversation.sessionId]: 'hello' });
    for (const kind of ['conversation', 'index', 'firstlines']) {
      equal((await storage.list(`${kind}||`)).length, 0, `no ${kind} written under nobody’s name`);
    }
    equal((await records.cache.loadConversations()).length, 0);
    equal(await records.cache.currentSessionId(), undefined);

    const base = `https://example.test/${freshNamespace('records')}`;
    records.useHistory(base, 'visitor-1');
    await records.cache.saveConversation(conversation);
    equal(JSON.stringify((await records.cache.loadConversations()).map((c) => c.sessionId)), '["session-before-identity"]');
    await records.forget(base);
  });
});
