/**
 * The panel's side of `downloadTranscript()`: which conversation, from the cache, saved as
 * Markdown (src/chatbot-widget/transcript.ts). A chunk of its own, loaded when the page is idle
 * after the panel opens (idle-preload.ts), so a download works offline once the panel has been
 * open; a first download before that loads it then.
 */
import type { ChatController } from '../conversation/chat-controller.js';
import { inertText } from '../../ui/inert-text.js';
import { downloadText, transcriptFileName, transcriptMarkdown } from '../transcript.js';
import type { PanelHost } from './panel-host.js';

/**
 * Saves `sessionId`'s conversation (default: the one shown) as `chat-YYYY-MM-DD.md`. Rejects,
 * saying what to do, when nothing is cached for it.
 */
export async function downloadTranscript(chat: ChatController, host: PanelHost, sessionId?: string): Promise<void> {
  // A refresh under way may be about to store the latest messages (a reply just confirmed).
  await chat.conversation.loaded;
  await chat.conversation.settled();
  const id = sessionId ?? chat.conversation.viewing ?? chat.conversation.current?.sessionId;
  const conversation = id ? await chat.conversation.cached(id) : undefined;
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
