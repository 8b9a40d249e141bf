import type { ReactNode } from 'react';

export const metadata = { title: 'chatbot-widget on Next.js' };
// Phones lay the page out at their own width, so the open chat takes the whole screen there.
export const viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
