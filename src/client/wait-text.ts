/**
 * Waits as people read them: `42 s`, `2 min 5 s`, `9 h 57 min`. A daily quota resets at UTC
 * midnight, so a 429 can ask for tens of thousands of seconds, and "retry in 35797 s" makes the
 * reader do the arithmetic.
 */

/**
 * Formats a wait in whole seconds. From an hour on, minutes are rounded up (never suggest
 * retrying before the server allows it) and seconds are left out.
 *
 * @example
 * formatWait(42);    // '42 s'
 * formatWait(125);   // '2 min 5 s'
 * formatWait(35797); // '9 h 57 min'
 */
export function formatWait(seconds: number): string {
  const total = Math.max(0, Math.ceil(seconds));
  if (total < 60) return `${total} s`;
  if (total < 3600) {
    const minutes = Math.floor(total / 60);
    const rest = total % 60;
    return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  const roundedMinutes = Math.ceil(total / 60);
  const hours = Math.floor(roundedMinutes / 60);
  const minutes = roundedMinutes % 60;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

/** A moment as `2026-02-01 00:00 UTC`: unambiguous whatever the reader's time zone. */
export function formatUtcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
