/**
 * The widget in the states its screenshots show, each in a frame of its own and drawn in the test
 * font: shared by the screenshot tests (visual-states.test.ts) and the tests proving that a
 * change of look is caught (visual-catches.test.ts), so both draw exactly the same thing.
 */
import { freshNamespace, mount, network, part, parts, typeAndSend, waitFor, waitForReplies } from './helpers.js';
import { frame, useTestFont } from './visual.js';
import type { ChatbotWidget } from '../../../src/browser/index.js';

export const GREETING = {
  greeting: 'Hi! Ask me about the widget.',
  suggestions: JSON.stringify(['How do I embed it?', 'Does it work offline?']),
};

/** A widget in `box`, drawn in the test font. */
export async function widgetIn(box: HTMLElement, attributes: Record<string, string>, namespace = freshNamespace('visual')) {
  box.id ||= `frame-${namespace}`;
  const mounted = await mount({ ...attributes, container: `#${box.id}` }, namespace);
  await useTestFont(mounted.el);
  return { ...mounted, box };
}

/** The conversation every picture of one shows: a reply with a code block, a table and a long link. */
export async function converse(el: ChatbotWidget): Promise<void> {
  await el.send('How do I style it?');
  await waitForReplies(el, 1);
  await el.send('visual-sample');
  await waitForReplies(el, 2);
}

/** The floating widget's launcher with one unread reply. */
export async function launcherWithBadge() {
  const scene = await widgetIn(frame(160, 120, { floating: true }), {});
  await scene.el.send('Are you there?');
  await waitFor(() => part(scene.el, 'unread-badge')?.textContent?.trim() === '1', 'one unread reply');
  return scene;
}

/** The floating panel open on an empty conversation: greeting and suggestions. */
export async function panelWithGreeting() {
  const scene = await widgetIn(frame(440, 700, { floating: true }), { open: '', heading: 'Ask us', ...GREETING });
  await waitFor(() => parts(scene.el, 'suggestion').length === 2, 'the suggestions');
  return scene;
}

/** Inline: the conversation, then a send that fails with the connection gone (the error line). */
export async function conversationWithError() {
  const scene = await widgetIn(frame(400, 860), { mode: 'inline', heading: 'Help' });
  await converse(scene.el);
  await network(scene.namespace, 'down');
  await typeAndSend(scene.el, 'And in dark?');
  await waitFor(() => part(scene.el, 'message-failed') && part(scene.el, 'error'), 'the failed send and its error');
  return scene;
}

/** Inline, dark theme: the conversation. */
export async function darkConversation() {
  const scene = await widgetIn(frame(400, 640), { mode: 'inline', theme: 'dark', heading: 'Support' });
  await converse(scene.el);
  return scene;
}
