/**
 * A visitor with past conversations in the widget's cache: one sent through the widget (the
 * current one), the others seeded upstream and opened once from the history pane, which is what
 * caches a conversation. Then the connection can be cut: search and transcript read the cache.
 */
import type { ChatbotWidget } from '../../../src/browser/index.js';
import { bubbleTexts, mount, part, parts, seed, storedIdentity, waitFor, waitForReplies } from './helpers.js';

const DAY = 86_400_000;

/** `past[i]` are the visitor's messages of the session `i + 1` days old, each answered by the bot. */
export async function visitorWithCachedSessions(current: string, past: string[][], attributes: Record<string, string> = {}) {
  const { el, namespace } = await mount({ open: '', 'page-size': '20', ...attributes });
  await el.send(current);
  await waitForReplies(el, 1);
  const { userId } = (await storedIdentity(namespace))!;
  const sessionIds = past.map((_, s) => `past-${namespace}-${s}`);
  await seed(
    past.flatMap((texts, s) =>
      texts.flatMap((text, m) =>
        ['User', 'Bot'].map((senderType, b) => ({
          chatSessionId: sessionIds[s],
          chatUserId: userId,
          senderType,
          text: senderType === 'User' ? text : `Answer to: ${text}`,
          createdAt: new Date(Date.now() - (s + 1) * DAY + m * 2_000 + b * 1_000).toISOString(),
        })),
      ),
    ),
  );
  for (const [s, sessionId] of sessionIds.entries()) {
    await openSession(el, sessionId);
    await waitFor(() => bubbleTexts(el).includes(past[s]!.at(-1)!), `session ${s} shown (and cached)`);
  }
  (el.shadowRoot!.querySelector('.viewing button') as HTMLButtonElement | null)?.click();
  await waitFor(() => bubbleTexts(el).includes(current), 'back to the current conversation');
  return { el, namespace, userId, sessionIds };
}

/** Opens a session through the history pane. */
async function openSession(el: ChatbotWidget, sessionId: string) {
  if (part(el, 'history')?.hidden !== false) part(el, 'history-button')!.click();
  const button = await waitFor(() => parts(el, 'session').find((b) => b.dataset.session === sessionId), `session ${sessionId} listed`);
  button.click();
}
