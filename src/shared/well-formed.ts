/**
 * Text that upstream can store as it was sent. A lone UTF-16 surrogate (half of a pair, as left
 * by cutting an emoji in two) has no UTF-8 form: upstream stores U+FFFD in its place, so the
 * stored text is not the text sent. In `u` mode `\p{Cs}` matches only unpaired surrogates.
 */
export const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `text` holds a lone surrogate: the handler refuses it, the widget does not send it. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
