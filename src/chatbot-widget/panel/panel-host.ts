import type { ConversationHost } from '../conversation/controller-context.js';
import type { WidgetStrings } from '../../ui/strings.js';

/**
 * What the panel reads from `<chatbot-widget>`: its settings and texts, and the few things the
 * element does for it. The element implements it; the panel never imports the element, so
 * the code of the first load and the panel's stay apart (imports go one way: element → panel).
 */
export interface PanelHost extends ConversationHost {
  readonly endpoint: string;
  readonly heading: string;
  readonly open: boolean;
  readonly mode: 'floating' | 'inline';
  readonly placeholder: string;
  readonly attachments: boolean;
  /** The assistant's first words in an empty conversation (shown, never sent). */
  readonly greeting: string;
  /** Prompts offered while the conversation is empty (may hold anything a page set). */
  readonly suggestions: readonly unknown[];
  /** The shadow root the element renders into. */
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The texts in use: the language's, with the page's `strings` over them. */
  readonly text: WidgetStrings;
  /** The tag dates and numbers are formatted with. */
  readonly formatTag: string;
  /** The direction of the widget's language (`rtl` for Arabic, Hebrew, Persian). */
  readonly textDirection: 'ltr' | 'rtl';
  /** Open, or inline (always shown). */
  readonly isShown: boolean;
  hide(): void;
  /** Moves focus to the launcher (the panel closed while focus was in it). */
  focusLauncher(): void;
}

/** The element of the panel whose `part` is `name`, once drawn. */
export function partOf(host: PanelHost, name: string): HTMLElement | undefined {
  return host.renderRoot.querySelector<HTMLElement>(`[part="${name}"]`) ?? undefined;
}
