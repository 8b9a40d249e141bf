export default function Home() {
  return (
    <main>
      <h1>chatbot-widget on Next.js</h1>
      <p>
        The signing handler answers under <code>/chatbot</code>: point the widget&apos;s <code>endpoint</code> attribute there.
      </p>
    </main>
  );
}
