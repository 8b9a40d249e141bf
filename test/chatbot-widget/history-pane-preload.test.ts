// The panel's lazier chunks (the history pane, the transcript's download) are fetched when the
// page is idle after the panel opens, so both work once the connection goes: here their code
// becomes unreachable once the panel has been open (web-test-runner.config.mjs; a file of its
// own, as that lasts for the page), and neither the pane nor a download needs it again.
import { executeServerCommand } from '@web/test-runner-commands';
import { recordDownloads } from '../helpers/browser/downloads.js';
import {
  assert,
  browserOnline,
  cachedCurrentConversation,
  equal,
  mount,
  network,
  part,
  parts,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

afterEach(() => {
  browserOnline(true);
  unmountAll();
});

describe('<chatbot-widget> lazier chunks, fetched when idle after the panel opens', () => {
  it('shows the history pane and downloads the transcript offline once the panel has been open', async () => {
    const downloads = recordDownloads();
    try {
      const { el, namespace } = await mount({ open: '' });
      await el.send('before the connection goes');
      await waitForReplies(el, 1);
      // Cached under the session the handler names (the revalidation after the reply has run):
      // what the pane and the transcript read once the connection is gone.
      await waitFor(
        async () => (await cachedCurrentConversation(namespace))?.messages.some((m) => m.text === 'before the connection goes'),
        'the conversation cached',
      );
      // The pane's code draws its (hidden) pane once here.
      await waitFor(() => part(el, 'history'), 'the pane’s code, fetched when idle');
      await executeServerCommand('fail-history-pane-code');
      await executeServerCommand('fail-transcript-code');
      await network(namespace, 'down');
      browserOnline(false);

      (part(el, 'history-button') as HTMLButtonElement).click();
      await el.updateComplete;
      const pane = part(el, 'history')!;
      assert(!pane.hidden, 'the pane is shown');
      equal(pane.querySelector('[role="alert"]'), null, 'no error in the pane');
      await waitFor(() => parts(el, 'session').length === 1, 'the cached session');

      await el.downloadTranscript();
      equal(downloads.files.length, 1);
      assert((await downloads.files[0]!.text).includes('before the connection goes'));
    } finally {
      downloads.stop();
    }
  });
});
