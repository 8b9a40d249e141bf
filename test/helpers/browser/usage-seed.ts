/**
 * Messages for the `<chatbot-usage>` tests, imported through the backend's `/__seed` route: ten
 * years (2014–2023) of conversations from a handful of users, uneven from month to month, some
 * months empty, and messages on the very first and last instants of UTC months (where a local
 * time zone would put them in the neighbouring month). One user's name and one message are
 * hostile markup, which must stay text.
 */
import { seed } from './helpers.js';

export const HOSTILE_TEXT = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> hello';
export const USAGE_USERS = ['usage-ada', 'usage-ben', 'usage-chloe', 'usage-dev', 'usage-eve'];
/** The busiest user: every month with conversations has one of theirs, and many have two. */
export const BUSIEST = 'usage-ada';
/** A user with a single session (and so nothing to page through). */
export const LONE_USER = 'usage-lone';

let seeded: Promise<void> | undefined;

function conversation(records: Record<string, unknown>[], user: string, session: string, at: number, text: string) {
  records.push({
    id: `${session}-q`,
    chatSessionId: session,
    chatUserId: user,
    userName: nameOf(user),
    senderType: 'User',
    text,
    createdAt: new Date(at).toISOString(),
    tokenCount: 7,
  });
  records.push({
    id: `${session}-a`,
    chatSessionId: session,
    chatUserId: user,
    userName: nameOf(user),
    senderType: 'Bot',
    text: `Answer to: ${text}`,
    createdAt: new Date(at + 1).toISOString(),
    tokenCount: 11,
    responseTime: 0.5,
  });
}

function nameOf(user: string) {
  return user === 'usage-eve' ? `Eve ${HOSTILE_TEXT}` : user.replace('usage-', '').replace(/^./, (c) => c.toUpperCase());
}

/**
 * Seeds the ten years once per run: the backend's emulator keeps them for every test file (each
 * file is a page of its own), so a page that finds them already there adds nothing.
 */
export function seedUsage(): Promise<void> {
  seeded ??= (async () => {
    const known = await fetch('/__admin/messages/usage-s-0-0-q');
    if (known.status === 200) return;
    const records: Record<string, unknown>[] = [];
    for (let i = 0; i < 120; i++) {
      const year = 2014 + Math.floor(i / 12);
      const month = i % 12;
      const conversations = i % 7 === 3 ? 0 : 1 + ((i * 5) % 4);
      for (let c = 0; c < conversations; c++) {
        const user = c === 0 || c === 2 ? BUSIEST : USAGE_USERS[(i + c) % USAGE_USERS.length]!;
        // The first conversation at the month's first instant, the last ending on its last millisecond.
        const at =
          c === 0
            ? Date.UTC(year, month, 1)
            : c === conversations - 1
              ? Date.UTC(year, month + 1, 1) - 2
              : Date.UTC(year, month, 2 + c * 5, 10);
        conversation(records, user, `usage-s-${i}-${c}`, at, i === 100 && c === 0 ? HOSTILE_TEXT : `Question ${i}.${c}`);
      }
    }
    conversation(records, LONE_USER, 'usage-lone-s', Date.UTC(2020, 5, 10, 12), 'The only question');
    await seed(records);
  })();
  return seeded;
}
