'use client';
// The widget on the page: the React component of chatbot-widget/react (made with @lit/react), in a
// client component. It is loaded in the browser only: the element, its panel and its cache are
// browser code, and the server has nothing to render for them.
import dynamic from 'next/dynamic';

const ChatbotWidget = dynamic(() => import('chatbot-widget/react').then((module) => module.ChatbotWidget), { ssr: false });

export function Chat() {
  return <ChatbotWidget endpoint="/chatbot" heading="Ask us" onChatbotError={(event) => console.warn(event.detail.message)} />;
}
