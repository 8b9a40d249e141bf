/**
 * axe-core over a widget, once its animations have settled: the violations as one line each
 * (`rule: targets`), empty when there are none. axe-core's browser build sets window.axe.
 */
import 'axe-core/axe.min.js';

declare global {
  interface Window {
    axe: typeof import('axe-core');
  }
}

export async function violations(el: HTMLElement): Promise<string[]> {
  // Contrast is judged on the settled panel, not halfway through its opening fade.
  await Promise.all(
    el
      .shadowRoot!.getAnimations()
      .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished),
  );
  const result = await window.axe.run(el, {
    runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'],
    rules: { region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
