import type { ReactiveControllerHost } from 'lit';
import type { ViewMessage } from '../conversation/view-message.js';
import type { Conversation } from '../conversation/conversation.js';
import { afterNextPaint } from '../../ui/after-paint.js';
import { isReply } from '../sender-kind.js';

/** Bubbles rendered when the list follows the newest message; more appear on scrolling up. */
const WINDOW = 40;
/** Bubbles added per scroll step. */
const STEP = 30;
/** At most this many bubbles are in the DOM, however long the conversation. */
const MAX_RENDERED = 150;
/** Distance from an edge (px) at which scrolling reveals more. */
const EDGE = 120;

/**
 * Which slice of a long conversation is in the DOM, and where the list is scrolled: the newest
 * bubbles by default, more on scrolling towards either end, never more than {@link MAX_RENDERED},
 * and what the visitor is reading kept in place while bubbles come and go around it.
 */
export class MessageWindow {
  /** Key of the oldest rendered bubble; undefined: the newest {@link WINDOW}. */
  #firstKey: string | undefined;
  /** Key of the newest rendered bubble; undefined: follow the newest message. */
  #lastKey: string | undefined;
  #stickToBottom = true;
  #anchor: { key: string; offset: number } | undefined;
  /** Key of the newest bubble rendered when the scroll was last restored: a bubble after it is new. */
  #newest: string | undefined;
  /** The slice the last render drew. */
  rendered: ViewMessage[] = [];
  /**
   * The next paint (after connecting, or while closed) shows only the newest bubbles that fill
   * the list (see {@link firstWindow}); the window widens to {@link WINDOW} right after it.
   */
  #narrow = true;
  /** The box those bubbles fill (px): the list's, once measured; before, the panel's or the viewport's. */
  #fill = { height: innerHeight || 800, width: 360 };
  #widening: Promise<void> | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #conversation: () => Conversation;
  readonly #pageSize: () => number;
  constructor(host: ReactiveControllerHost, conversation: () => Conversation, pageSize: () => number) {
    this.#host = host;
    this.#conversation = conversation;
    this.#pageSize = pageSize;
  }

  /** The list shows the newest message and follows new ones. */
  get following() {
    return this.#stickToBottom;
  }

  /** Back to the newest messages, following new ones (a send, another conversation shown). */
  follow() {
    this.#firstKey = this.#lastKey = undefined;
    this.#stickToBottom = true;
  }

  /** The next paint is a first one (connected, opened): keep it small. */
  narrowNextPaint() {
    this.#narrow = true;
  }

  /** The size of the box the first bubbles must fill, as last laid out (0 where not laid out: ignored). */
  measured(height: number, width: number) {
    if (height > 0 && width > 0) this.#fill = { height, width };
  }

  /** Opens at `key`: the slice around it, no following. */
  reveal(key: string) {
    const messages = this.#conversation().messages;
    const i = messages.findIndex((m) => m.key === key);
    if (i < 0) return;
    this.#firstKey = messages[Math.max(0, i - STEP)]?.key;
    this.#lastKey = i + STEP >= messages.length - 1 ? undefined : messages[i + STEP]?.key;
    this.#stickToBottom = false;
  }

  /** The bounded slice of messages to render (and remembers it as {@link rendered}). */
  slice(messages: ViewMessage[]): ViewMessage[] {
    let end = messages.length;
    if (this.#lastKey) {
      const i = messages.findIndex((m) => m.key === this.#lastKey);
      if (i >= 0) end = i + 1;
      else this.#lastKey = undefined;
    }
    let start = Math.max(0, end - (this.#narrow ? firstWindow(messages, end, this.#fill) : WINDOW));
    if (this.#firstKey) {
      const i = messages.findIndex((m) => m.key === this.#firstKey);
      if (i >= 0 && i < end) start = Math.min(start, i);
      else this.#firstKey = undefined;
    }
    if (end - start > MAX_RENDERED) start = end - MAX_RENDERED;
    this.rendered = messages.slice(start, end);
    return this.rendered;
  }

  /** Before an update: remembers the bubble at the top of the view, to keep it in place. */
  rememberAnchor(list: HTMLElement | undefined) {
    this.#anchor = undefined;
    if (!list || this.#stickToBottom) return;
    for (const el of list.querySelectorAll<HTMLElement>('[data-key]')) {
      if (el.offsetTop + el.offsetHeight > list.scrollTop) {
        this.#anchor = { key: el.dataset.key!, offset: el.offsetTop - list.scrollTop };
        break;
      }
    }
  }

  /**
   * After an update: scrolls to the newest message, or puts the remembered bubble back in place.
   * A reply that has just arrived and is taller than the list is shown from its start, where it is
   * read from (its end would hide the question and the reply's first lines).
   */
  restoreScroll(list: HTMLElement | undefined) {
    if (!list) return;
    const newest = this.rendered.at(-1);
    const reply =
      this.#stickToBottom && this.#newest && !!newest && isReply(newest.sender) && newest.key !== this.#newest
        ? list.querySelector<HTMLElement>(`[data-key="${CSS.escape(newest.key)}"]`)
        : null;
    this.#newest = newest?.key;
    if (reply && reply.offsetHeight > list.clientHeight) {
      list.scrollTop = reply.offsetTop;
      this.#stickToBottom = false;
    } else if (this.#stickToBottom) list.scrollTop = list.scrollHeight;
    else if (this.#anchor) {
      const el = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.#anchor.key)}"]`);
      if (el) list.scrollTop = el.offsetTop - this.#anchor.offset;
    }
  }

  /** Once the first bubbles are on screen, renders the full window above them. */
  widenAfterPaint() {
    if (!this.#narrow || this.#widening || !this.rendered.length) return;
    this.#widening = afterNextPaint().then(() => {
      this.#widening = undefined;
      this.#narrow = false;
      this.#host.requestUpdate();
    });
  }

  /** The list scrolled: near an edge, more bubbles on that side (and fewer on the other). */
  onScroll(list: HTMLElement) {
    const conversation = this.#conversation();
    const messages = conversation.messages;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 4;
    const [firstIndex, lastIndex] = this.#renderedRange(messages);
    // At the end of a window that ends at the newest message (no `lastKey`): not "the last bubble
    // drawn is the newest message", which a message just added and not yet drawn (a reply while
    // this scroll event waited for its frame) would make false, and the list stop following.
    this.#stickToBottom = atBottom && !this.#lastKey;
    if (list.scrollTop < EDGE) {
      if (firstIndex > 0) {
        const start = Math.max(0, firstIndex - STEP);
        this.#firstKey = messages[start]?.key;
        if (lastIndex - start + 1 > MAX_RENDERED) this.#lastKey = messages[start + MAX_RENDERED - 1]?.key;
        this.#stickToBottom = false;
        this.#host.requestUpdate();
      } else if (conversation.hasOlder && !conversation.loadingOlder) {
        void this.loadOlder();
      }
    } else if (list.scrollHeight - list.scrollTop - list.clientHeight < EDGE && this.#lastKey) {
      const end = Math.min(messages.length - 1, lastIndex + STEP);
      this.#lastKey = end >= messages.length - 1 ? undefined : messages[end]?.key;
      if (end - firstIndex + 1 > MAX_RENDERED) this.#firstKey = messages[end - MAX_RENDERED + 1]?.key;
      this.#host.requestUpdate();
    }
  }

  /** Loads older messages (cache or server) and reveals what arrived above the oldest bubble. */
  async loadOlder() {
    const conversation = this.#conversation();
    this.#stickToBottom = false;
    const before = conversation.messages.length;
    const first = this.rendered[0];
    const last = this.rendered[this.rendered.length - 1];
    await conversation.loadOlder();
    const messages = conversation.messages;
    if (messages.length <= before) return;
    // A page from the server, or a step of the cached history (it may be thousands of messages).
    const firstIndex = first
      ? Math.max(
          0,
          messages.findIndex((m) => m.key === first.key),
        )
      : messages.length;
    const lastIndex = last ? messages.findIndex((m) => m.key === last.key) : messages.length - 1;
    const start = Math.max(0, firstIndex - Math.max(STEP, this.#pageSize()));
    this.#firstKey = messages[start]?.key;
    if (lastIndex - start + 1 > MAX_RENDERED) this.#lastKey = messages[start + MAX_RENDERED - 1]?.key;
    this.#host.requestUpdate();
  }

  #renderedRange(messages: ViewMessage[]): [number, number] {
    const first = this.rendered[0];
    const last = this.rendered[this.rendered.length - 1];
    return [
      first ? messages.findIndex((m) => m.key === first.key) : 0,
      last ? messages.findIndex((m) => m.key === last.key) : messages.length - 1,
    ];
  }
}

/**
 * Lower bounds of a bubble's height, for sizing the first paint without laying anything out:
 * its padding, time line and gap, plus a line of text per {@link CHAR_PX} px of width (real
 * bubbles are taller: more chrome, wider glyphs than a 12px font's, the action row of a reply).
 */
const BUBBLE_PX = 36;
const LINE_PX = 20;
const CHAR_PX = 5;
/** The first paint draws at least this many (where there are): a guard against overestimates. */
const MIN_FIRST_WINDOW = 6;

/** A bubble's estimated height (px). */
function estimatedHeight(text: string, charsPerLine: number) {
  let lines = 0;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    // A code block's line scrolls sideways instead of wrapping; a blank line is a paragraph's
    // margin; prose wraps (lines Markdown joins are counted apart: more height, fewer bubbles,
    // which the minimum makes up for).
    lines += fenced ? 1 : Math.ceil(line.length / charsPerLine);
  }
  return BUBBLE_PX + LINE_PX * Math.max(1, lines);
}

/**
 * How many of the newest bubbles (those before `end`) fill a box of the given size, by estimates
 * that err towards more: the first paint is small, and no emptier than a full list.
 */
function firstWindow(messages: readonly ViewMessage[], end: number, fill: { height: number; width: number }) {
  const charsPerLine = Math.max(20, Math.floor((fill.width * 0.85) / CHAR_PX));
  let height = 0;
  let count = 0;
  while (count < WINDOW && end - count > 0 && (height < fill.height || count < MIN_FIRST_WINDOW)) {
    height += estimatedHeight(messages[end - count - 1]!.text, charsPerLine);
    count++;
  }
  return count;
}
