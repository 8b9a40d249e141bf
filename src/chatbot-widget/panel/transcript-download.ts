/**
 * The panel's side of `downloadTranscript()`: which conversation, from the cache, saved as
 * Markdown (src/chatbot-widget/transcript.ts). Part of the panel's chunk, not loaded on demand: a
 * download must work offline, when no further chunk could be fetched.
 */
import { html } from 'lit';
import type { ChatController } from '../controllers/chat-controller.js';
import { inertText } from '../../ui/inert-text.js';
import { downloadText, transcriptFileName, transcriptMarkdown } from '../transcript.js';
import type { PanelHost } from './panel-host.js';

/** Arrow into a tray: the download button's icon. */
export const downloadIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4v11M7 10l5 5 5-5M5 20h14" /></svg>`;

/**
 * Saves `sessionId`'s conversation (default: the one shown) as `chat-YYYY-MM-DD.md`. Rejects,
 * saying what to do, when nothing is cached for it.
 */
export async function downloadTranscript(chat: ChatController, host: PanelHost, sessionId?: string): Promise<void> {
  // A refresh under way may be about to store the latest messages (a reply just confirmed).
  await chat.conversation.loaded;
  await chat.conversation.settled();
  const id = sessionId ?? chat.conversation.viewing ?? chat.conversation.current?.sessionId;
  const conversation = id ? await chat.cachedConversation(id) : undefined;
  if (!conversation?.messages.length) {
    throw new Error(
      id
        ? `downloadTranscript: nothing is cached for session "${id}" in this browser. Open that conversation in the widget while online (it is cached then), or pass the id of a session the history pane lists.`
        : 'downloadTranscript: no conversation to download: this visitor has no messages on this endpoint in this browser yet. Call it once a conversation has begun, or pass the id of a session the history pane lists.',
    );
  }
  const markdown = transcriptMarkdown(conversation.messages, {
    heading: inertText(host.heading) || host.text.heading,
    strings: host.text,
    locale: host.formatTag,
  });
  downloadText(transcriptFileName(conversation.messages), markdown);
}
