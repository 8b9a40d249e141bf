// The panel's snapshot, drawn by the element's first render while the panel's code is on its way
// (held back for this page from the first test to the last: web-test-runner.config.mjs, which is
// why these tests have a file of their own). The snapshots here are written as a previous visit
// would have left them (snapshot.test.ts has the panel write its own).
import { executeServerCommand } from '@web/test-runner-commands';
import { axeViolations } from '../helpers/browser/axe.js';
import { MAX_SNAPSHOT_DEPTH, MAX_SNAPSHOT_NODES } from '../../src/chatbot-widget/panel-snapshot.js';
import {
  absoluteEndpoint,
  assert,
  equal,
  freshNamespace,
  mountWatched,
  part,
  quietFor,
  unmountAll,
  waitFor,
} from '../helpers/browser/helpers.js';

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

/** The endpoint's first-paint record key. */
const paintKey = (namespace: string) => `chatbot-widget|paint|${absoluteEndpoint(namespace)}`;

/**
 * Stores a first-paint record of `visitor` carrying `snapshot` (its nodes), for a fresh endpoint
 * whose stored visitor is `stored`.
 */
function writeSnapshot(snapshot: unknown, { visitor = 'me', stored = 'me' }: { visitor?: string; stored?: string } = {}) {
  const namespace = freshNamespace();
  localStorage.setItem(`chatbot-widget|visitor|${absoluteEndpoint(namespace)}`, stored);
  const conversation = { sessionId: 'snapshot-session', messages: [], totalItems: 0 };
  localStorage.setItem(paintKey(namespace), JSON.stringify({ userId: visitor, conversation, snapshot }));
  return namespace;
}

/** The rules of the styles the widget's shadow root has adopted, as text. */
const adoptedRules = (widget: Element) =>
  widget.shadowRoot!.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText));

/**
 * Counts the nodes the DOM builds while `action` runs: elements made by namespace (as a snapshot
 * is rebuilt: the element's own templates are cloned instead), and text nodes holding `marker`.
 */
function countingNodesBuilt(marker: string, action: () => Promise<unknown>) {
  const { createElementNS, createTextNode } = document;
  let built = 0;
  document.createElementNS = function (this: Document, ...args: Parameters<Document['createElementNS']>) {
    built++;
    return createElementNS.apply(this, args);
  } as Document['createElementNS'];
  document.createTextNode = function (this: Document, data: string) {
    if (data === marker) built++;
    return createTextNode.call(this, data);
  };
  return action()
    .then(() => built)
    .finally(() => {
      document.createElementNS = createElementNS;
      document.createTextNode = createTextNode;
    });
}

/** Mounts the widget open, once its first render is done (its `updateComplete` would wait for the panel's code). */
async function mountOpen(namespace: string) {
  const { el: widget } = mountWatched({ open: '' }, namespace);
  await waitFor(() => part(widget, 'panel')?.firstElementChild, 'the first render');
  return widget;
}

describe('<chatbot-widget> snapshot, before the panel’s code', () => {
  it('draws the stored panel in the first render, inert and styled, at the end of its list', async () => {
    const namespace = writeSnapshot(panelTree(30));
    const { el: widget, first } = mountWatched({ open: '' }, namespace);
    const keys = await first; // the first render that shows bubbles: the element's own
    equal(keys.join(' '), Array.from({ length: 30 }, (_, i) => `m${i}`).join(' '));
    const snapshot = widget.shadowRoot!.querySelector<HTMLElement>('.snapshot')!;
    assert(snapshot.inert, 'inert: no focus, no clicks, left out by assistive technology');
    equal(part(widget, 'input'), null, 'the panel itself is not here');
    const list = part(widget, 'messages')!;
    await waitFor(() => list.clientHeight > 0, 'laid out');
    assert(list.scrollHeight > list.clientHeight, 'the stored bubbles overflow the list');
    assert(Math.abs(list.scrollHeight - list.clientHeight - list.scrollTop) <= 1, `at its end (scrollTop ${list.scrollTop})`);
    equal(getComputedStyle(part(widget, 'message')!).display, 'flex', 'the conversation’s styles apply');
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

  it('drops a record that is not one, whole: the loading line, nothing adopted, and throws nothing', async () => {
    const errors: string[] = [];
    const onError = (event: ErrorEvent | PromiseRejectionEvent) => errors.push(String('reason' in event ? event.reason : event.message));
    addEventListener('error', onError);
    addEventListener('unhandledrejection', onError);
    const plain = adoptedRules(await mountOpen(freshNamespace()));
    const SVG = 'http://www.w3.org/2000/svg';
    const records = [
      '{',
      'null',
      '[1,2]',
      '{"userId":"me","snapshot":5}',
      '{"userId":"me","snapshot":["text", 7]}',
      '{"userId":"me","snapshot":[[1, 2, 3, 4]]}',
      // Nested lists where an element's fields are
      JSON.stringify({ userId: 'me', snapshot: [[[[HTML, 'p', [], []]]]] }),
      JSON.stringify({ userId: 'me', snapshot: [[HTML, 'p', [], [[[HTML, 'p', [], []]]]]] }),
      // An element of another namespace than the panel's, even one of its names
      JSON.stringify({ userId: 'me', snapshot: [['urn:x', 'div', [], []]] }),
      JSON.stringify({ userId: 'me', snapshot: [el('p', {}, ['http://www.w3.org/1998/Math/MathML', 'span', [], []])] }),
      // Fields of the wrong type or number
      JSON.stringify({ userId: 'me', snapshot: [[HTML, 'p', [['class', 5]], []]] }),
      JSON.stringify({ userId: 'me', snapshot: [[HTML, 'p', [['class']], []]] }),
      JSON.stringify({ userId: 'me', snapshot: [[HTML, 'p', {}, []]] }),
      JSON.stringify({ userId: 'me', snapshot: [[HTML, 'p', [], 'text']] }),
      JSON.stringify({ userId: 'me', snapshot: [[HTML, 'p', [], [], 'more']] }),
      JSON.stringify({ userId: 'me', snapshot: [[SVG, 7, [], []]] }),
      JSON.stringify({ userId: 'me', snapshot: [el('p', {}, 'fine'), el('p', {}, null as unknown as string)] }),
      // Styles beside the nodes: a shape the widget never reads
      JSON.stringify({ userId: 'me', snapshot: ['[part=messages]{display:flex}', [el('p', {}, 'old')]] }),
    ];
    try {
      for (const stored of records) {
        const namespace = writeSnapshot([]);
        localStorage.setItem(paintKey(namespace), stored);
        const widget = await mountOpen(namespace);
        assert(widget.shadowRoot!.querySelector('.loading[role="status"]'), `${stored}: the loading line`);
        equal(widget.shadowRoot!.querySelector('.snapshot'), null, `${stored}: no snapshot`);
        equal(localStorage.getItem(paintKey(namespace)), null, `${stored}: the record is gone`);
        equal(adoptedRules(widget).join('\n'), plain.join('\n'), `${stored}: no styles but the element’s own`);
      }
    } finally {
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onError);
    }
    equal(errors.join('\n'), '');
  });

  it('draws with the styles it ships only: a record’s CSS loads nothing and restyles nothing', async () => {
    const requested: string[] = [];
    const observer = new PerformanceObserver((list) => requested.push(...list.getEntries().map((entry) => entry.name)));
    observer.observe({ type: 'resource' });
    const probe = (name: string) => `/__snapshot-css-probe-${name}.png`;
    // A record of styles beside nodes, with styles an attacker wrote.
    const css =
      `[part~='message']{background:url(${probe('url')})}` +
      `[part='header']{background-image:image-set(url(${probe('image-set')}) 1x)}` +
      `@font-face{font-family:probe;src:url(${probe('font')})}[part~='message'] p{font-family:probe}` +
      `.body{background:\\75rl(${probe('escaped')})}` +
      `:host{position:fixed!important;inset:0!important;display:block!important;z-index:2147483647}`;
    const withCss = writeSnapshot([css, panelTree(3)]);
    // And nodes that borrow the launcher's look, which sits outside the panel.
    const borrowing = writeSnapshot(panelTree(3, [el('button', { part: 'launcher' }, 'fake launcher')]));
    const plain = await mountOpen(freshNamespace());
    const control = document.createElement('div');
    control.className = 'snapshot-css-control';
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`.snapshot-css-control{width:1px;height:1px;background:url(${probe('control')})}`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      const attacked = await mountOpen(withCss);
      const fake = await mountOpen(borrowing);
      document.body.append(control);
      // Requested in the same style pass as the snapshot's would be: once it is in, theirs would be too.
      await waitFor(() => requested.some((name) => name.includes(probe('control'))), 'the control image requested');
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      equal(requested.filter((name) => name.includes('__snapshot-css-probe') && !name.includes('control')).join(' '), '', 'nothing loaded');
      const box = (widget: Element) => `${widget.getBoundingClientRect().width}x${widget.getBoundingClientRect().height}`;
      equal(box(attacked), box(plain), 'the host’s box as without a snapshot');
      equal(getComputedStyle(attacked).position, 'static', 'the host in the page’s flow');
      assert(!adoptedRules(attacked).some((rule) => rule.includes('__snapshot-css-probe')), 'the record’s CSS is not adopted');
      // The panel's own box holds whatever a snapshot's nodes look like.
      const panel = part(fake, 'panel')!.getBoundingClientRect();
      const drawn = fake.shadowRoot!.querySelector('.snapshot [part="launcher"]')!.getBoundingClientRect();
      const within = drawn.left >= panel.left && drawn.right <= panel.right && drawn.top >= panel.top && drawn.bottom <= panel.bottom;
      assert(within, `drawn within the panel ${JSON.stringify(panel)}: ${JSON.stringify(drawn)}`);
    } finally {
      observer.disconnect();
      control.remove();
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });

  it('rejects a record too large, too many nodes or nested too deep, after bounded work', async () => {
    const marker = '·';
    const cases: [string, unknown, number][] = [
      // Over the record's size: not even parsed.
      ['a 1 MB record', [el('p', {}, 'x'.repeat(1_000_000))], 0],
      ['50,000 nodes', Array.from({ length: 50_000 }, () => marker), 0],
      // Within the size, over the node count or depth: built up to the bound, then dropped.
      ['5,000 text nodes', [el('p', {}, ...Array.from({ length: 5_000 }, () => marker))], MAX_SNAPSHOT_NODES],
      ['200 levels', [Array.from({ length: 199 }).reduce<Tree>((inner) => el('span', {}, inner), el('span', {}))], MAX_SNAPSHOT_DEPTH],
    ];
    for (const [name, snapshot, bound] of cases) {
      const namespace = writeSnapshot(snapshot);
      let widget: Element | undefined;
      const built = await countingNodesBuilt(marker, async () => {
        widget = await mountOpen(namespace);
      });
      assert(built <= bound, `${name}: ${built} nodes built, at most ${bound}`);
      equal(widget!.shadowRoot!.querySelector('.snapshot'), null, `${name}: no snapshot`);
      equal(localStorage.getItem(paintKey(namespace)), null, `${name}: the record is gone`);
    }
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
    await quietFor(300); // an image's error, a frame's load
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
