// The screenshot tests catch real changes of look: each draws a state of visual-states.test.ts
// exactly as it does, changes one thing a regression would change, and expects the comparison
// with that state's approved screenshot to fail. Skipped while baselines are being approved
// (there is nothing to differ from then).
import { approvingBaselines, expectVisualDifference, removeFrames, settle } from '../helpers/browser/visual.js';
import { conversationWithError, darkConversation, panelWithGreeting } from '../helpers/browser/visual-scenes.js';
import { unmountAll } from '../helpers/browser/helpers.js';
import type { ChatbotWidget } from '../../src/browser/index.js';

afterEach(() => {
  unmountAll();
  removeFrames();
});

/** Adds `css` to the widget's own styles, as a change to its stylesheet would. */
function restyle(el: ChatbotWidget, css: string) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, sheet];
}

describe('the screenshot tests catch', function () {
  before(async function () {
    if (await approvingBaselines()) this.skip();
  });

  it('suggestions moved by 10 px', async () => {
    const { el, box } = await panelWithGreeting();
    restyle(el, "[part~='suggestion'] { translate: -10px 0 }");
    await settle(el);
    await expectVisualDifference(box, 'panel-greeting', 'the suggestions moved 10 px');
  });

  it("a change of the dark theme's message colours", async () => {
    const { el, box } = await darkConversation();
    // The assistant's bubble one step lighter than the dark theme's #1f2937.
    el.style.setProperty('--chatbot-bot-background', '#263244');
    await settle(el);
    await expectVisualDifference(box, 'dark-conversation', "the dark theme's bubble colour changed");
  });

  it('the code block width rule reverted: a reply holding code back at 85 % of the list', async () => {
    const { el, box } = await conversationWithError();
    // conversation.styles.ts gives a reply holding a code block the list's whole width
    // (`[part~='message-bot']:has(pre)`); without that rule it is a message like any other, at
    // most 85 % wide, its code cut to a narrower box.
    restyle(el, "[part~='message-bot']:has(pre) { align-self: auto; align-items: flex-start; max-inline-size: 85% }");
    await settle(el);
    await expectVisualDifference(box, 'conversation', 'the code reply narrowed to 85 %');
  });
});
