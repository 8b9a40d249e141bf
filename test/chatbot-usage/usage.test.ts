// <chatbot-usage> in Chromium against the real handler and emulator (test/helpers/browser/backend.ts), on ten
// years of seeded conversations (test/helpers/browser/usage-seed.ts): its figures against the admin routes and
// the chatbot-api command, long ranges, the drill-down to one message, CSV, and its failures.
import { executeServerCommand } from '@web/test-runner-commands';
import { assert, equal, network, part, parts, quietFor, waitFor } from '../helpers/browser/helpers.js';
import { adminGet, count, countByMonth, figure, mountUsage, recordFetches, unmountUsage } from '../helpers/browser/usage-helpers.js';
import { BUSIEST, HOSTILE_TEXT, LONE_USER, seedUsage } from '../helpers/browser/usage-seed.js';
import type { ChatbotUsage } from '../../src/browser/index.js';

before(() => seedUsage());
afterEach(() => unmountUsage());

const YEAR = { from: '2023-01-01', to: '2024-01-01' };
const DECADE = { from: '2014-01-01', to: '2024-01-01' };

/** The chart's bars as the owner reads them: month, messages, users, sessions. */
function bars(el: ChatbotUsage) {
  return parts(el, 'bar').map((bar) => ({
    month: bar.dataset.month!,
    messages: figure(bar.querySelector('.figure')!.textContent),
    users: figure(bar.querySelectorAll('.per-month')[0]!.textContent),
    sessions: figure(bar.querySelectorAll('.per-month')[1]!.textContent),
    height: Number(bar.querySelector('rect')!.getAttribute('height')),
  }));
}

const total = (el: ChatbotUsage, name: string) =>
  figure(el.shadowRoot!.querySelector(`[part~="total"][data-total="${name}"] dd`)!.textContent);

async function cli(args: string[]) {
  const result = await executeServerCommand<{ code: number; stdout: string; stderr: string }, { args: string[] }>('chatbot-api', { args });
  assert(result, 'the chatbot-api command ran');
  equal(result.code, 0, `chatbot-api ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

describe('<chatbot-usage> figures', () => {
  it('draws one bar per UTC month equal to count-by-month, and totals equal to the count route and chatbot-api', async () => {
    const { el, errors } = await mountUsage(YEAR);
    const expected = await countByMonth(YEAR.from, YEAR.to);
    equal(expected.length, 12, 'twelve buckets');
    const shown = bars(el);
    equal(
      JSON.stringify(shown.map(({ height: _, ...b }) => b)),
      JSON.stringify(
        expected.map((m) => ({ month: m.month, messages: m.messageCount, users: m.distinctUsers, sessions: m.distinctSessions })),
      ),
    );
    // Heights in proportion to the figures: the tallest bar is the busiest month, an empty month has none.
    const max = Math.max(...expected.map((m) => m.messageCount));
    for (const [i, m] of expected.entries())
      equal(
        Math.round(shown[i]!.height),
        Math.round(m.messageCount === 0 ? 0 : Math.max(1, (m.messageCount / max) * 100)),
        `${m.month} height`,
      );
    assert(
      expected.some((m) => m.messageCount === 0),
      'the seed has an empty month in this year',
    );

    equal(total(el, 'messages'), await count(YEAR.from, YEAR.to), 'messages total = count route');
    equal(total(el, 'from-users'), await count(YEAR.from, YEAR.to, true), 'from-users total = count route with sent=true');
    equal(
      total(el, 'tokens'),
      expected.reduce((s, m) => s + m.tokenTotal, 0),
      'tokens',
    );

    // The command-line client over the same range: the table's rows and total, and count.
    const table = await cli(['usage', '--from', YEAR.from, '--to', YEAR.to, '--table']);
    for (const bar of shown) {
      const row = table.split('\n').find((line) => line.startsWith(bar.month));
      assert(row, `chatbot-api prints ${bar.month}`);
      const [messages, , users, sessions] = row
        .trim()
        .split(/\s{2,}/)
        .slice(1)
        .map(figure);
      equal(
        JSON.stringify([messages, users, sessions]),
        JSON.stringify([bar.messages, bar.users, bar.sessions]),
        `${bar.month} in chatbot-api usage --table`,
      );
    }
    equal(
      figure(
        table
          .split('\n')
          .find((line) => line.startsWith('total'))!
          .trim()
          .split(/\s{2,}/)[1],
      ),
      total(el, 'messages'),
      'table total',
    );
    equal(JSON.parse(await cli(['count', '--from', YEAR.from, '--to', YEAR.to])).data, total(el, 'messages'), 'chatbot-api count');
    equal(errors.length, 0, 'no error event');
  });

  it('opens a wide chart on the latest months on a right-to-left page too, where they are on the left', async () => {
    const { el } = await mountUsage({ ...DECADE, dir: 'rtl', style: 'display:block;width:360px' });
    const scroller = part(el, 'chart')!.querySelector<HTMLElement>('.chart-scroll')!;
    const box = scroller.getBoundingClientRect();
    const [oldest, latest] = [parts(el, 'bar')[0]!.getBoundingClientRect(), parts(el, 'bar').at(-1)!.getBoundingClientRect()];
    assert(latest.left < oldest.left, 'the months run from right to left');
    assert(
      latest.left >= box.left - 1 && latest.right <= box.right + 1,
      `the latest month in view: ${latest.left}–${latest.right} in ${box.left}–${box.right}`,
    );
    assert(oldest.left >= box.right, 'the oldest months scrolled out of view, to the right');
  });

  it('counts a message at 00:00 UTC on the 1st in that month, and says months are UTC', async () => {
    const { el } = await mountUsage({ from: '2016-03-01', to: '2016-05-01' });
    const expected = await countByMonth('2016-03-01', '2016-05-01');
    equal(JSON.stringify(bars(el).map((b) => [b.month, b.messages])), JSON.stringify(expected.map((m) => [m.month, m.messageCount])));
    // The seed puts a conversation on the first and the last instant of each month: an element that
    // bucketed by local time (or by the day) would move one of them across the boundary.
    equal(total(el, 'messages'), await count('2016-03-01', '2016-05-01'));
    assert(/UTC calendar months/.test(el.shadowRoot!.textContent!), 'the element says months are UTC');
  });

  it('renders a ten-year range readably: grouped by year, scrolling inside the chart, said on screen', async () => {
    const { el } = await mountUsage({ ...DECADE, style: 'display:block;width:360px' });
    const expected = await countByMonth(DECADE.from, DECADE.to);
    equal(parts(el, 'bar').length, 120, '120 bars');
    equal(JSON.stringify(bars(el).map((b) => b.messages)), JSON.stringify(expected.map((m) => m.messageCount)));
    equal(el.shadowRoot!.querySelectorAll('.year').length, 10, 'one group a year');
    const chart = part(el, 'chart')!;
    assert(
      /120 months, grouped by year: the chart opens on the latest; scroll it sideways/.test(chart.textContent!),
      'the grouping and scrolling are said',
    );
    const scroller = chart.querySelector<HTMLElement>('.chart-scroll')!;
    assert(scroller.scrollWidth > scroller.clientWidth, 'the chart scrolls');
    equal(Math.round(scroller.scrollLeft + scroller.clientWidth), scroller.scrollWidth, 'it opens on the latest months');
    equal(scroller.tabIndex, 0, 'the scrolling chart takes keyboard focus');
    assert(document.documentElement.scrollWidth <= document.documentElement.clientWidth, 'the page does not scroll sideways');
    // Every month stays readable: no label is cut to nothing, each bar keeps its width.
    for (const bar of parts(el, 'bar').slice(0, 3)) assert(bar.getBoundingClientRect().width >= 60, 'a bar keeps a readable width');

    // The table view lists the same 120 months.
    const tableButton = [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Table')!;
    tableButton.click();
    await el.updateComplete;
    const rows = [...part(el, 'table')!.querySelectorAll<HTMLElement>('tbody tr')];
    equal(rows.length, 120);
    equal(JSON.stringify(rows.map((r) => figure(r.querySelector('td')!.textContent))), JSON.stringify(expected.map((m) => m.messageCount)));
    equal(tableButton.getAttribute('aria-pressed'), 'true');
    // The chosen view is filled in the accent, so that it cannot be taken for the focus ring.
    const chartButton = [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Chart')!;
    const accent = getComputedStyle(el.shadowRoot!.querySelector('button.primary')!);
    const chosen = getComputedStyle(tableButton);
    equal(chosen.backgroundColor, accent.backgroundColor, 'filled in the accent, as the Show button is');
    equal(chosen.color, accent.color);
    assert(getComputedStyle(chartButton).backgroundColor !== accent.backgroundColor, 'the view not chosen is not filled');
    equal(chosen.boxShadow, 'none', 'no ring drawn around the chosen view');
  });

  it('exports the figures shown as CSV', async () => {
    const { el } = await mountUsage(YEAR);
    const expected = await countByMonth(YEAR.from, YEAR.to);
    let saved: { href: string; download: string } | undefined;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      saved = { href: this.href, download: this.download };
    };
    try {
      part(el, 'export-button')!.click();
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    assert(saved, 'a download started');
    equal(saved.download, 'chatbot-usage-2023-01-01-to-2024-01-01.csv');
    const lines = (await (await fetch(saved.href)).text()).trim().split('\r\n');
    equal(lines[0], 'month (UTC),messages,user messages,distinct users,distinct sessions,tokens,up,down');
    // No visitor rated anything in 2023: up and down are 0 (usage-feedback.test.ts has ratings).
    equal(
      JSON.stringify(lines.slice(1, -1)),
      JSON.stringify(
        expected.map((m) =>
          [m.month, m.messageCount, m.userMessageCount, m.distinctUsers, m.distinctSessions, m.tokenTotal, 0, 0].join(','),
        ),
      ),
    );
    equal(lines.at(-1), ['total', total(el, 'messages'), total(el, 'from-users'), '', '', total(el, 'tokens'), 0, 0].join(','));
  });
});

describe('<chatbot-usage> drill-down', () => {
  it('goes from the busiest user to their sessions, a session, and one message, all as plain text', async () => {
    const { el } = await mountUsage(DECADE);
    const users = parts(el, 'user');
    equal(users[0]!.dataset.userId, BUSIEST, 'the busiest user comes first');
    const sentCounts = users.map((u) => figure(u.querySelector('.count')!.textContent));
    equal(JSON.stringify(sentCounts), JSON.stringify([...sentCounts].sort((a, b) => b - a)), 'ranked by messages sent');

    users[0]!.click();
    await el.settled;
    const sessions = await adminGet<{ id: string }[]>('sessions', { userId: BUSIEST, page: '1', pageSize: '10' });
    equal(JSON.stringify(parts(el, 'session').map((s) => s.dataset.sessionId)), JSON.stringify(sessions.map((s) => s.id)));
    parts(el, 'session')[0]!.click();
    await el.settled;
    const messages = await adminGet<{ id: string; text: string }[]>('messages', { sessionId: sessions[0]!.id, page: '1', pageSize: '20' });
    equal(JSON.stringify(parts(el, 'message').map((m) => m.dataset.messageId)), JSON.stringify(messages.map((m) => m.id)));
    parts(el, 'message')[1]!.click();
    await el.settled;
    const detail = part(el, 'message-detail')!;
    equal(detail.querySelector('.text')!.textContent, messages[1]!.text);
    equal(el.shadowRoot!.activeElement, detail, 'focus moves to the message');
  });

  it('shows hostile names and messages as text, never markup', async () => {
    (window as { __pwned?: number }).__pwned = undefined;
    const { el } = await mountUsage(DECADE);
    const eve = parts(el, 'user').find((u) => u.dataset.userId === 'usage-eve')!;
    assert(eve.textContent!.includes(HOSTILE_TEXT), 'the name is shown as typed');
    // Session 100.0 holds the hostile message: open the busiest user's sessions up to it.
    parts(el, 'user')[0]!.click();
    await el.settled;
    let hostile: HTMLElement | undefined;
    for (let page = 0; page < 20 && !hostile; page++) {
      const session = parts(el, 'session').find((s) => s.dataset.sessionId === 'usage-s-100-0');
      if (session) {
        session.click();
        await el.settled;
        hostile = parts(el, 'message').find((m) => m.textContent!.includes(HOSTILE_TEXT));
      } else {
        (part(el, 'pager')!.querySelectorAll('button')[1] as HTMLButtonElement).click();
        await el.settled;
      }
    }
    assert(hostile, 'the hostile message is listed as text');
    equal(el.shadowRoot!.querySelectorAll('img, script, iframe').length, 0, 'no element from the text');
    await quietFor(100);
    equal((window as { __pwned?: number }).__pwned, undefined, 'nothing ran');
  });

  it('shows the user chosen last when the answer for the one chosen before comes later', async () => {
    const { el } = await mountUsage(DECADE);
    const [first, second] = parts(el, 'user');
    // The first user's sessions are held back until the second user's are shown.
    const original = window.fetch;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (url.includes(`userId=${first!.dataset.userId}`)) await held;
      return original(input, init);
    };
    try {
      first!.click();
      second!.click();
      await el.settled;
      release();
      // Time for the late answer to arrive and be drawn, if it were taken.
      await quietFor(300);
      await el.settled;
    } finally {
      window.fetch = original;
    }
    const sessions = await adminGet<{ id: string }[]>('sessions', { userId: second!.dataset.userId!, page: '1', pageSize: '10' });
    equal(JSON.stringify(parts(el, 'session').map((s) => s.dataset.sessionId)), JSON.stringify(sessions.map((s) => s.id)));
    const pressed = parts(el, 'user').filter((u) => u.getAttribute('aria-pressed') === 'true');
    equal(
      JSON.stringify(pressed.map((u) => u.dataset.userId)),
      JSON.stringify([second!.dataset.userId]),
      'the second user is the one marked',
    );
    // The heading names the user by name and id: names alone can be shared.
    const name = second!.querySelector('.name')!.textContent;
    assert(name !== second!.dataset.userId, 'the fixture user has a name');
    equal(el.shadowRoot!.querySelector('#sessions-heading')!.textContent, `Sessions of ${name} (${second!.dataset.userId}), newest first`);
  });

  it('disables Previous and Next when there is nothing to page, and pages when there is', async () => {
    const { el } = await mountUsage(DECADE);
    parts(el, 'user')
      .find((u) => u.dataset.userId === LONE_USER)!
      .click();
    await el.settled;
    const [previous, next] = part(el, 'pager')!.querySelectorAll('button');
    assert(previous!.disabled && next!.disabled, 'one page: both disabled');
    parts(el, 'user')[0]!.click();
    await el.settled;
    const pager = () => part(el, 'pager')!.querySelectorAll('button');
    assert(pager()[0]!.disabled && !pager()[1]!.disabled, 'first of several pages: only Next');
    const first = parts(el, 'session')
      .map((s) => s.dataset.sessionId)
      .join();
    pager()[1]!.click();
    await el.settled;
    assert(!pager()[0]!.disabled, 'page 2: Previous enabled');
    assert(
      parts(el, 'session')
        .map((s) => s.dataset.sessionId)
        .join() !== first,
      'another page of sessions',
    );
    assert(/Page 2 of/.test(part(el, 'pager')!.textContent!), 'says which page');
  });
});

describe('<chatbot-usage> failures', () => {
  it('refuses a From after To in the form with a message, and sends nothing', async () => {
    const { el, errors } = await mountUsage(YEAR);
    const form = part(el, 'range') as HTMLFormElement;
    (form.elements.namedItem('from') as HTMLInputElement).value = '2024-06-01';
    (form.elements.namedItem('to') as HTMLInputElement).value = '2024-01-01';
    const fetches = recordFetches();
    try {
      form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      await el.updateComplete;
      await quietFor(200);
    } finally {
      fetches.stop();
    }
    equal(fetches.urls.length, 0, 'no request');
    const message = form.querySelector('#range-error')!.textContent!;
    assert(/must be after “From”/.test(message), `the form says why: ${message}`);
    equal((form.elements.namedItem('to') as HTMLInputElement).getAttribute('aria-invalid'), 'true');
    equal(el.shadowRoot!.activeElement, form.elements.namedItem('to'), 'focus on the field to fix');
    equal(el.from, YEAR.from, 'the range is unchanged');
    equal(errors.length, 0, 'not a failure of the service');
  });

  it('says a bad token once, in the error part and one chatbot-error, and forgets it after a good token', async () => {
    const { el, errors } = await mountUsage({ ...YEAR, 'admin-token': 'not-the-admin-token' });
    await quietFor(200);
    equal(errors.length, 1, 'one event for the whole first view');
    equal(errors[0]!.kind, 'identity');
    equal(errors[0]!.status, 403);
    const error = part(el, 'error')!;
    assert(!error.hidden, 'the error is shown');
    equal(error.textContent, errors[0]!.message, 'the same words');
    assert(/admin token is wrong or out of date/.test(error.textContent!), error.textContent!);
    equal(parts(el, 'bar').length, 0, 'no figures');
    el.adminToken = (await import('../helpers/browser/admin-token.js')).ADMIN_TOKEN;
    await el.settled;
    assert(part(el, 'error')!.hidden, 'no stale message left');
    equal(parts(el, 'bar').length, 12);
    equal(errors.length, 1, 'no second event');
  });

  it('says admin access is off, and how to turn it on, when the handler has no authorizeAdmin', async () => {
    const { el, errors } = await mountUsage(YEAR, `noadmin-${Date.now()}`);
    equal(errors.length, 1);
    const text = part(el, 'error')!.textContent!;
    assert(/admin access is off/.test(text) && /CHATBOT_ADMIN_TOKEN/.test(text) && /authorizeAdmin/.test(text), text);
  });

  it('says the handler cannot be reached when it is down, once', async () => {
    const namespace = `u-down-${Date.now()}`;
    await network(namespace, 'down');
    try {
      const { el, errors } = await mountUsage(YEAR, namespace);
      equal(errors.length, 1);
      equal(errors[0]!.kind, 'unreachable');
      assert(/cannot be reached/.test(part(el, 'error')!.textContent!), part(el, 'error')!.textContent!);
    } finally {
      await network(namespace, 'up');
    }
  });

  it('says which attribute is wrong when from/to are not a range, without a request', async () => {
    const fetches = recordFetches();
    try {
      const { el, errors } = await mountUsage({ from: '2024-13-01', to: '2024-01-01' });
      equal(errors.length, 1);
      equal(errors[0]!.kind, 'rejected');
      assert(/“From” must be a date/.test(part(el, 'error')!.textContent!), part(el, 'error')!.textContent!);
    } finally {
      fetches.stop();
    }
    equal(fetches.urls.filter((u) => u.includes('/admin/')).length, 0);
  });

  it('loads the last twelve months by default', async () => {
    const fetches = recordFetches();
    try {
      const { el } = await mountUsage();
      await waitFor(() => parts(el, 'bar').length === 12, 'twelve bars');
    } finally {
      fetches.stop();
    }
    const now = new Date();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);
    assert(
      fetches.urls.some((u) => u.includes(`count-by-month?from=${from}&to=`)),
      fetches.urls.join('\n'),
    );
  });
});
