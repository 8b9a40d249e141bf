// Tables in replies, in real Chromium: a reply's GFM table is drawn as a table (column headers,
// each column aligned as its delimiter row says), its cells stay inert (a tag is text, a
// `javascript:` link is no link), and in a 320 px panel a table wider than the bubble scrolls
// sideways inside its named, focusable region while the panel keeps its width. Axe passes, right
// to left, in both themes.
import { setViewport } from '@web/test-runner-commands';
import type { ChatbotWidget } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import { inertProblems } from '../helpers/browser/inert-dom.js';
import { assert, equal, mount, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import { LONG_CELL_WORD } from '../helpers/browser/table-sample.js';

const initialViewport = { width: innerWidth, height: innerHeight };
const PANEL_WIDTH = 320;

afterEach(async () => {
  unmountAll();
  await setViewport(initialViewport);
});

/** An open 320 px widget showing the `wide-table` reply, its bubbles settled; the table's region. */
async function widgetWithWideTable(attributes: Record<string, string> = {}): Promise<{ el: ChatbotWidget; region: HTMLElement }> {
  await setViewport({ width: 1024, height: 768 });
  const { el } = await mount({ open: '', style: `--chatbot-width:${PANEL_WIDTH}px`, ...attributes });
  await el.send('wide-table');
  await waitForReplies(el, 1);
  await waitFor(() => parts(el, 'message').every((m) => !m.dataset.key!.startsWith('local-')), 'server ids');
  await el.updateComplete;
  const panel = part(el, 'panel')!;
  await Promise.all(panel.getAnimations().map((a) => a.finished));
  const region = await waitFor(() => part(el, 'message-bot')?.querySelector<HTMLElement>('.table-scroll') ?? undefined, 'the table');
  return { el, region };
}

const texts = (cells: Iterable<Element>) => [...cells].map((cell) => cell.textContent!.trim());

describe('<chatbot-widget> tables in replies', () => {
  it('draws a reply’s table with its column headers, cells and alignments', async () => {
    const { region } = await widgetWithWideTable();
    const table = region.querySelector('table')!;
    const headers = [...table.querySelectorAll('thead th')];
    equal(texts(headers).join(' | '), 'Plan | Monthly price | Seats | What it includes');
    equal(headers.map((th) => th.getAttribute('scope')).join(' '), 'col col col col');
    const rows = [...table.querySelectorAll('tbody tr')];
    equal(rows.length, 2, 'body rows');
    equal(texts(rows[0]!.children).join(' | '), `Free | 0 € | 1 | ${LONG_CELL_WORD}`);
    // `:--`, `:-:`, `--:` and no colon: start, centre, end, and the start by default.
    for (const row of [headers, [...rows[0]!.children]])
      equal(row.map((cell) => getComputedStyle(cell).textAlign).join(' '), 'start center end start', `alignments of ${row[0]!.tagName}`);
  });

  it('keeps hostile cells inert: a tag is its text, a javascript: link is no link', async () => {
    const { region } = await widgetWithWideTable();
    equal(inertProblems(region).join('\n'), '');
    const cells = [...region.querySelectorAll('tbody tr:last-child td')];
    equal(cells[0]!.textContent, '<img src=x onerror="window.__pwned=1">');
    equal(region.querySelectorAll('img').length, 0, 'images');
    equal(cells[1]!.querySelector('a'), null, 'a link to javascript:');
    equal(cells[1]!.textContent, 'pay');
    equal(cells[3]!.querySelector('a')?.href, 'https://example.com/docs', 'the docs link');
    equal((window as { __pwned?: unknown }).__pwned, undefined, 'canary');
  });

  for (const dir of ['ltr', 'rtl']) {
    it(`scrolls a wide table inside its region in a ${PANEL_WIDTH} px panel, which keeps its width (${dir})`, async () => {
      const { el, region } = await widgetWithWideTable({ dir });
      const panel = part(el, 'panel')!.getBoundingClientRect();
      assert(Math.abs(panel.width - PANEL_WIDTH) <= 1, `the panel is ${panel.width}px wide, not ${PANEL_WIDTH}px`);
      const list = part(el, 'messages')!;
      equal(list.scrollWidth, list.clientWidth, 'the message list does not scroll sideways');
      const bubble = region.closest('.bubble')!.getBoundingClientRect();
      const box = region.getBoundingClientRect();
      assert(box.left >= bubble.left - 0.5 && box.right <= bubble.right + 0.5, 'the region stays inside its bubble');
      assert(region.scrollWidth > region.clientWidth, `the table scrolls sideways (${region.scrollWidth} > ${region.clientWidth})`);
      equal(region.getAttribute('role'), 'region');
      equal(region.getAttribute('tabindex'), '0');
      equal(region.getAttribute('aria-label'), 'Plan, Monthly price, Seats, What it includes');
    });
  }

  for (const theme of ['light', 'dark']) {
    it(`has no axe violations with the table focused, right to left, ${theme} theme`, async () => {
      const { el, region } = await widgetWithWideTable({ dir: 'rtl', theme });
      region.focus();
      equal((await axeViolations(el)).join('\n'), '');
    });
  }
});
