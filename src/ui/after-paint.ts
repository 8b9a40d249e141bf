/**
 * Resolves at the start of the frame after the next one: the next frame (with whatever the DOM
 * holds now) has been painted, and work done on resolving lands in the following frame instead
 * of delaying that paint. Where frames do not run (a hidden tab) it resolves after 100 ms, so
 * nothing waits forever.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(fallback);
        resolve();
      }),
    );
  });
}
