/** Moving through the widget with real key presses (Playwright's keyboard), as a keyboard-only visitor does. */
import { sendKeys } from '@web/test-runner-commands';

/** Presses Tab until the focused element in the widget has part `name`; fails after `max` presses. */
export async function tabTo(el: HTMLElement, name: string, max = 30): Promise<HTMLElement> {
  for (let i = 0; i < max; i++) {
    await sendKeys({ press: 'Tab' });
    const active = el.shadowRoot!.activeElement as HTMLElement | null;
    if (active?.matches(`[part~="${name}"]`)) return active;
  }
  throw new Error(`Tab never reached the ${name} part`);
}

export const press = (key: string) => sendKeys({ press: key });

/** What the widget's polite status line says right now. */
export const announcement = (el: HTMLElement) => el.shadowRoot!.querySelector('[data-announcer]')?.textContent?.trim() ?? '';
