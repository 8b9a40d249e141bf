/**
 * Puts text on the visitor's clipboard. The Clipboard API first; where it is missing (an
 * insecure origin, an old browser) or refuses (no permission, the document not focused), a
 * hidden read-only field inside the widget's shadow root is filled, selected and copied with
 * `document.execCommand('copy')`. The field is hidden by a class of the widget's styles, never
 * a `style` attribute (strict CSP), and focus goes back to where it was.
 */

/** Hides the fallback's field from sight and from screen readers (a class of the panel styles). */
export const CLIPBOARD_BUFFER_CLASS = 'clipboard-buffer';

/** Resolves to whether `text` is now on the clipboard. */
export async function copyText(text: string, root: ShadowRoot): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused: the fallback below may still be allowed (it needs only the visitor's click).
  }
  return copyBySelection(text, root);
}

function copyBySelection(text: string, root: ShadowRoot): boolean {
  const active = root.activeElement as HTMLElement | null;
  const field = document.createElement('textarea');
  field.value = text;
  field.readOnly = true;
  field.tabIndex = -1;
  field.className = CLIPBOARD_BUFFER_CLASS;
  field.setAttribute('aria-hidden', 'true');
  root.append(field);
  let copied = false;
  try {
    field.select();
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    field.remove();
    active?.focus();
  }
  return copied;
}
