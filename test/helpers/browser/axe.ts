/**
 * axe-core in the test page (its browser build sets window.axe): the violations found in one
 * widget, as `rule: targets` lines, judged on the settled panel, not halfway through its fade.
 */
import 'axe-core/axe.min.js';

declare global {
  interface Window {
    axe: typeof import('axe-core');
  }
}

export async function axeViolations(el: HTMLElement): Promise<string[]> {
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
