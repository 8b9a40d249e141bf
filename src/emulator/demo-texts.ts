// The texts the demo conversations are made of (./demo-data.ts): what visitors ask the help bot
// of a product like this one, the bot's answers, and the visitors' names.

export interface Topic {
  questions: string[];
  answer: string;
}

// The questions visitors ask the help bot of a product like this one, and the bot's answers.
export const TOPICS: Topic[] = [
  {
    questions: ['How do I embed the widget?', 'How can I add the chat to my website?', 'where do i put the script tag'],
    answer:
      'Add `<script type="module" src="/chatbot-widget.js"></script>` to your page, then `<chatbot-widget endpoint="/chatbot" heading="Help"></chatbot-widget>` where you want it.',
  },
  {
    questions: ['Is my API secret safe?', 'Does the secret key end up in the browser?', 'Can visitors see my API key?'],
    answer:
      'Yes, it is safe: the secret stays on your server inside the signing handler, which signs every request. The browser never sees it.',
  },
  {
    questions: ['Can other visitors read my conversations?', 'Is my chat private?', 'who can see my messages'],
    answer: "Only you. Each visitor sees only their own conversations; the handler never lets anyone read another visitor's messages.",
  },
  {
    questions: ['How do I change the colours?', 'Can I make the chat match my brand?', 'how to change the font'],
    answer:
      'Set the `--chatbot-*` CSS custom properties on the element for colours, fonts, radius and size, or style parts with `::part()`.',
  },
  {
    questions: ['Is there a dark mode?', 'Does it support dark theme?'],
    answer: 'Yes: set `theme="dark"`, or `theme="auto"` to follow the visitor\'s system setting.',
  },
  {
    questions: ['Does it work with React?', 'Can I use this in my Next.js app?', 'How do I use the widget in Vue?'],
    answer:
      'Yes. Import `chatbot-widget` once and use the `<chatbot-widget>` tag like any element; listen to `chatbot-reply` and the other events for updates.',
  },
  {
    questions: ['What happens if I lose my connection?', 'Does it work offline?', "my message didn't send"],
    answer:
      'Messages typed offline wait in an outbox on your device and are sent when the connection returns. A failed one shows a retry button.',
  },
  {
    questions: ['Where can I find my old conversations?', 'How do I see my chat history?', "can I go back to yesterday's chat"],
    answer: 'Open the history from the header of the chat panel: every earlier session is listed there, newest first.',
  },
  {
    questions: ['How many messages can I send?', 'Is there a limit on messages?', 'I got a "too many requests" error'],
    answer: 'Each visitor can send 10 messages a minute and 100 a day by default. When a limit is reached, wait a moment and try again.',
  },
  {
    questions: ['Which languages does the widget support?', 'Can I translate the chat window?', 'Do you speak German?'],
    answer: 'Every text of the widget can be replaced through its `strings` property, so you can translate it into any language.',
  },
  {
    questions: ['How do I deploy the signing handler?', 'Can I run the handler on Cloudflare Workers?', 'Does it work with Express?'],
    answer: 'Use `createSigningHandler` from `chatbot-widget/server`: it runs on Express, Workers, Next.js, Deno and Bun.',
  },
  {
    questions: ['How do I open the chat from my own button?', 'Can I open the widget with JavaScript?'],
    answer:
      "Call `show()` on the element, for example `document.querySelector('chatbot-widget').show()`. `hide()` and `toggle()` work too.",
  },
  {
    questions: ['Can the chat fill a section of my page instead of floating?', 'how to make the chat inline'],
    answer: 'Set `mode="inline"`: the widget then fills its container instead of showing a launcher in the corner.',
  },
  {
    questions: ['What are your opening hours?', 'Can I talk to a human?'],
    answer: "I'm available around the clock. For anything I can't answer, leave your question here and the team will follow up.",
  },
  {
    questions: ['How much does it cost?', 'Is there a free plan?', 'What does premium include?'],
    answer:
      'The free tier includes 100 messages a day per chatbot; premium raises that to 10,000, and enterprise plans have custom limits.',
  },
  {
    questions: ['How do I reset the chat?', 'Can I delete my chat data from this device?'],
    answer: "The widget's `reset()` method forgets your identity and the cached conversations on this device.",
  },
  {
    questions: ['Does the bot understand Markdown?', 'Can the bot send links?'],
    answer:
      'Yes, replies may contain **Markdown**: links, lists and code blocks are shown formatted, and no HTML from a reply is ever run.',
  },
  {
    questions: ['Is the widget accessible?', 'Does it work with a screen reader?'],
    answer: 'Yes: it is keyboard-operable, labelled for screen readers, and its colours meet contrast guidelines.',
  },
];

// A question that comes with a screenshot: the record gets a `url`.
export const ATTACHMENT_QUESTIONS = [
  'Here is a screenshot of the error I get.',
  'The chat window looks cut off on my page, see the screenshot.',
  'Is this how the launcher should look? Screenshot attached.',
];
export const ATTACHMENT_ANSWER =
  'Thanks for the screenshot! Check that the page loads `/chatbot-widget.js` as a module and that `endpoint` points at your signing handler.';

export const OPENERS = ['', '', '', 'Hi! ', 'Hello, ', 'Quick question: ', 'Hey there. '];
export const FOLLOW_UPS: [string, string][] = [
  ['Thanks!', "You're welcome! Anything else I can help you with?"],
  ['Thank you, that worked.', 'Glad it worked! Have a great day.'],
  ['ok great', 'Great! Let me know if you have more questions.'],
  [
    'Can you explain that in more detail?',
    "Of course. The docs have a step-by-step guide with examples; the short version is above, and I'm happy to answer anything specific.",
  ],
  ['And does that work on mobile too?', 'Yes, the widget adapts to small screens and works in every modern mobile browser.'],
];

export const FIRST_NAMES = [
  'Ada',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemal',
  'Lena',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoë',
  'Amara',
  'Bruno',
  'Camille',
  'Diego',
  'Emre',
  'Freya',
  'Gabriel',
  'Hana',
  'Ivan',
  'Julia',
  'Kofi',
  'Lucía',
  'Malik',
  'Noor',
];
export const LAST_NAMES = [
  'Lovelace',
  'Okafor',
  'Martin',
  'Petrov',
  'García',
  'Haddad',
  'Hopper',
  'Tanaka',
  'Silva',
  'Becker',
  'Yilmaz',
  'Schmidt',
  'Rossi',
  'Khan',
  'Nilsson',
  'Patel',
  'Dubois',
  'Moreno',
  'Larsen',
  'Aziz',
  'Chen',
  'Novak',
  'Kim',
  'Nguyen',
  'Müller',
  'Costa',
  'Ivanova',
  'Bianchi',
  'Mensah',
  'Fischer',
];
