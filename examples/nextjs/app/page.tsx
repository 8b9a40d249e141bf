import { Chat } from './chat';

export default function Home() {
  return (
    <main>
      <h1>chatbot-widget on Next.js</h1>
      <p>
        The signing handler answers under <code>/chatbot</code>; the chat in the corner talks to it.
      </p>
      <Chat />
    </main>
  );
}
