// The panel's snapshot, drawn by the element's first render while the panel's code is on its way
// (held back for this page from the first test to the last: web-test-runner.config.mjs, which is
// why these tests have a file of their own). The snapshots here are written as a previous visit
// would have left them (snapshot.test.ts has the panel write its own).
import { executeServerCommand } from '@web/test-runner-commands';
import { axeViolations } from './support/axe.js';
import { absoluteEndpoint, assert, equal, freshNamespace, mountWatched, part, unmountAll, waitFor } from './support/helpers.js';

before(() => executeServerCommand('hold-panel-code'));
after(() => executeServerCommand('release-panel-code'));
afterEach(() => unmountAll());

const HTML = 'http://www.w3.org/1999/xhtml';
type Tree = string | [string, string, [string, string][], Tree[]];
const el = (name: string, attributes: Record<string, string>, ...children: Tree[]): Tree => [
  HTML,
  name,
  Object.entries(attributes),
  children,
];

/** A panel as the snapshot stores it: a header with its title, and a list of `count` bubbles. */
function panelTree(count: number, extra: Tree[] = []): Tree[] {
  const bubbles = Array.from({ length: count }, (_, i) =>
    el('div', { part: 'message message-bot', 'data-key': `m${i}` }, el('p', {}, `Snapshot bubble ${i}`)),
  );
  return [
    el('div', { part: 'header' }, el('h2', { id: 'heading' }, 'Snapshot title')),
    el(
      'div',
      { class: 'body' },
      el('div', { class: 'chat' }, el('div', { part: 'messages', role: 'log', tabindex: '0' }, ...bubbles, ...extra)),
    ),
  ];
}

/** Styles as the snapshot stores them: the bubbles tall enough that 12 overflow the list. */
const CSS =
  '.body,.chat{display:flex;flex-direction:column;flex:1;min-height:0}' +
  "[part='messages']{overflow-y:auto;flex:1;position:relative}" +
  "[part~='message']{height:90px;color:rgb(1, 2, 3)}";

/**
 * Stores a first-paint record of `visitor` carrying a snapshot (its styles and `nodes`), for a
 * fresh endpoint whose stored visitor is `stored`.
 */
function writeSnapshot(
  nodes: unknown,
  { visitor = 'me', stored = 'me', css = CSS }: { visitor?: string; stored?: string; css?: string } = {},
) {
  const namespace = freshNamespace();
  const base = absoluteEndpoint(namespace);
  localStorage.setItem(`chatbot-widget|visitor|${base}`, stored);
  const conversation = { sessionId: 'snapshot-session', messages: [], totalItems: 0 };
  localStorage.setItem(`chatbot-widget|paint|${base}`, JSON.stringify({ userId: visitor, conversation, snapshot: [css, nodes] }));
  return namespace;
}

/** Mounts the widget open, once its first render is done (its `updateComplete` would wait for the panel's code). */
async function mountOpen(namespace: string) {
  const { el: widget } = mountWatched({ open: '' }, namespace);
  await waitFor(() => part(widget, 'panel')?.firstElementChild, 'the first render');
  return widget;
}

describe('<chatbot-widget> snapshot, before the panel’s code', () => {
  it('draws the stored panel in the first render, inert and styled, at the end of its list', async () => {
    const namespace = writeSnapshot(panelTree(12));
    const { el: widget, first } = mountWatched({ open: '' }, namespace);
    const keys = await first; // the first render that shows bubbles: the element's own
    equal(keys.join(' '), Array.from({ length: 12 }, (_, i) => `m${i}`).join(' '));
    const snapshot = widget.shadowRoot!.querySelector<HTMLElement>('.snapshot')!;
    assert(snapshot.inert, 'inert: no focus, no clicks, left out by assistive technology');
    equal(part(widget, 'input'), null, 'the panel itself is not here');
    const list = part(widget, 'messages')!;
    await waitFor(() => list.clientHeight > 0, 'laid out');
    assert(list.scrollHeight > list.clientHeight, 'the stored bubbles overflow the list');
    assert(Math.abs(list.scrollHeight - list.clientHeight - list.scrollTop) <= 1, `at its end (scrollTop ${list.scrollTop})`);
    equal(getComputedStyle(part(widget, 'message')!).color, 'rgb(1, 2, 3)', 'the stored styles apply');
  });

  it('names the dialog with the stored title, and axe finds nothing', async () => {
    const widget = await mountOpen(writeSnapshot(panelTree(3)));
    const panel = part(widget, 'panel')!;
    equal(widget.shadowRoot!.getElementById(panel.getAttribute('aria-labelledby')!)?.textContent, 'Snapshot title');
    equal((await axeViolations(widget)).join('\n'), '');
  });

  it('draws no snapshot taken for another visitor than the one stored: the loading line instead', async () => {
    const widget = await mountOpen(writeSnapshot(panelTree(3), { visitor: 'someone-else', stored: 'me' }));
    equal(widget.shadowRoot!.querySelector('.snapshot'), null);
    assert(widget.shadowRoot!.querySelector('.loading[role="status"]'), 'the loading line');
  });

  it('draws the loading line for a snapshot that is not one, and throws nothing', async () => {
    const errors: string[] = [];
    const onError = (event: ErrorEvent | PromiseRejectionEvent) => errors.push(String('reason' in event ? event.reason : event.message));
    addEventListener('error', onError);
    addEventListener('unhandledrejection', onError);
    try {
      const records = [
        '{',
        'null',
        '[1,2]',
        '{"userId":"me","snapshot":5}',
        '{"userId":"me","snapshot":["", 7]}',
        '{"userId":"me","snapshot":["", [[1, 2, 3, 4]]]}',
        '{"userId":null,"snapshot":["", []]}',
      ];
      for (const stored of records) {
        const namespace = writeSnapshot([]);
        localStorage.setItem(`chatbot-widget|paint|${absoluteEndpoint(namespace)}`, stored);
        const widget = await mountOpen(namespace);
        assert(widget.shadowRoot!.querySelector('.loading[role="status"]'), `${stored}: the loading line`);
        equal(widget.shadowRoot!.querySelector('.snapshot'), null, `${stored}: no snapshot`);
      }
    } finally {
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onError);
    }
    equal(errors.join('\n'), '');
  });

  it('builds only the elements and attributes the panel draws with: nothing that could run or load', async () => {
    const w = window as unknown as { __snapshotPwned?: number };
    const SVG = 'http://www.w3.org/2000/svg';
    const hostile: Tree[] = [
      el('script', {}, 'window.__snapshotPwned = 1'),
      el('x:script', {}, 'window.__snapshotPwned = 2'), // a prefix: still a script
      [SVG, 'script', [], ['window.__snapshotPwned = 3']],
      el('iframe', { srcdoc: '<script>parent.__snapshotPwned = 4</script>' }),
      el('x:iframe', { src: 'javascript:parent.__snapshotPwned = 5' }),
      el('object', { data: 'data:text/html,x' }),
      el('embed', { src: 'data:text/html,x' }),
      el('img', { src: '/__snapshot-probe.png', onerror: 'window.__snapshotPwned = 6' }),
      el('link', { rel: 'stylesheet', href: '/__snapshot-probe.css' }),
      el('style', {}, '@import "/__snapshot-probe.css";'),
      [SVG, 'image', [['href', '/__snapshot-probe.svg']], []],
      el('chatbot-widget', { endpoint: '/elsewhere', open: '' }), // a custom element: not upgraded here
      el(
        'a',
        {
          href: 'javascript:window.__snapshotPwned = 7',
          onclick: 'window.__snapshotPwned = 8',
          style: 'height:7px',
          class: 'kept',
          formaction: 'x',
        },
        'a link',
      ),
      el('button', { onfocus: 'window.__snapshotPwned = 9', autofocus: '', part: 'kept-part' }, 'b'),
    ];
    const widget = await mountOpen(writeSnapshot(panelTree(1, hostile)));
    await new Promise((resolve) => setTimeout(resolve, 300)); // an image's error, a frame's load
    const snapshot = widget.shadowRoot!.querySelector('.snapshot')!;
    const names = [...snapshot.querySelectorAll('*')].map((e) => e.localName);
    for (const name of ['script', 'iframe', 'object', 'embed', 'img', 'link', 'style', 'image', 'chatbot-widget']) {
      assert(!names.includes(name), `no ${name}`);
    }
    const link = snapshot.querySelector('a')!;
    equal(link.textContent, 'a link', 'the panel’s own elements are built');
    equal(link.getAttribute('class'), 'kept', 'their look is kept');
    equal(link.getAttribute('href'), '#', 'a link goes nowhere');
    for (const name of ['onclick', 'style', 'formaction']) equal(link.getAttribute(name), null, `no ${name}`);
    const button = snapshot.querySelector('button')!;
    equal(button.getAttribute('part'), 'kept-part');
    equal(button.getAttribute('onfocus'), null, 'no event handler');
    equal(w.__snapshotPwned, undefined, 'nothing ran');
    const probes = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('__snapshot-probe'));
    equal(probes.map((entry) => entry.name).join(' '), '', 'nothing loaded');
  });

  // Last: once released, this page has the panel's code.
  it('gives way to the panel once its code arrives', async () => {
    const widget = await mountOpen(writeSnapshot(panelTree(3)));
    assert(widget.shadowRoot!.querySelector('.snapshot'), 'the snapshot meanwhile');
    await executeServerCommand('release-panel-code');
    await waitFor(() => part(widget, 'input'), 'the panel');
    equal(widget.shadowRoot!.querySelector('.snapshot'), null, 'the snapshot is gone');
  });
});
