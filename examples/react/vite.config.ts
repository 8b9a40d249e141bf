import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The widget talks to the signing handler at /chatbot on the page's own origin; in development
// Vite forwards it to the handler you run (`npm start` in the chatbot-widget repository listens
// on 8080; CHATBOT_HANDLER_URL points elsewhere).
export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/chatbot': { target: process.env.CHATBOT_HANDLER_URL ?? 'http://localhost:8080', changeOrigin: true } } },
});
