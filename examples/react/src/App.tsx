import { useState } from 'react';
import { ChatbotWidget, type ChatbotReplyDetail } from 'chatbot-widget/react';

// Texts of the widget to override: any key of WidgetStrings. Passed as a property (an object),
// which the ChatbotWidget component does under React 18 as well as 19.
const strings = { heading: 'Acme help', send: 'Ask' };

export function App() {
  const [opened, setOpened] = useState(false);
  const [lastReply, setLastReply] = useState('');
  return (
    <main>
      <h1>Acme</h1>
      <p>
        Chat opened: <output id="opened">{opened ? 'yes' : 'no'}</output>. Last reply: <output id="last-reply">{lastReply}</output>
      </p>
      <ChatbotWidget
        endpoint="/chatbot"
        strings={strings}
        onChatbotOpen={() => setOpened(true)}
        onChatbotReply={(event: CustomEvent<ChatbotReplyDetail>) => setLastReply(event.detail.text)}
        onChatbotError={(event) => console.warn(event.detail.message)}
      />
    </main>
  );
}
