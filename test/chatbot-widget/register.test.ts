// registerChatbotWidget: the widget under a name of the site's choosing, next to the default one
// (one constructor cannot be defined twice, so each further name needs its own class).
import { ChatbotWidget, registerChatbotWidget } from '../../src/browser/index.js';
import { assert, endpointOf, equal, freshNamespace, part, unmountAll } from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

describe('registerChatbotWidget', () => {
  it('defines a second name next to <chatbot-widget>, a working widget under it, and repeats are harmless', async () => {
    equal(customElements.get('chatbot-widget'), ChatbotWidget, 'the default name holds the exported class');
    const SupportChat = registerChatbotWidget('support-chat');
    assert(SupportChat !== ChatbotWidget, 'a second name gets its own class');
    equal(customElements.get('support-chat'), SupportChat);
    equal(registerChatbotWidget('support-chat'), SupportChat, 'registering the same name again returns its class');
    equal(registerChatbotWidget(), ChatbotWidget, 'the default registration is untouched');
    const third = registerChatbotWidget('help-chat');
    assert(third !== SupportChat && third !== ChatbotWidget, 'a third name works too');

    const el = document.createElement('support-chat') as ChatbotWidget;
    assert(el instanceof ChatbotWidget, 'the element is a ChatbotWidget');
    el.endpoint = endpointOf(freshNamespace());
    document.body.append(el);
    try {
      await el.updateComplete;
      assert(part(el, 'launcher'), 'it draws its launcher');
      el.show();
      await el.updateComplete;
      assert(el.hasAttribute('open') && part(el, 'panel') && !part(el, 'panel')!.hidden, 'it opens like the default element');
    } finally {
      el.remove();
    }
  });

  it('refuses a name that is not a valid custom element name with the browser’s own error', () => {
    let error: unknown;
    try {
      registerChatbotWidget('nohyphen');
    } catch (caught) {
      error = caught;
    }
    equal((error as DOMException | undefined)?.name, 'SyntaxError');
  });
});
