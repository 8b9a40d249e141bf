import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The signing handler at /chatbot on the page's origin; in development Vite forwards it
// (`npm start` in the chatbot-widget repository listens on 8080).
export default defineConfig({
  plugins: [svelte()],
  server: { proxy: { '/chatbot': { target: process.env.CHATBOT_HANDLER_URL ?? 'http://localhost:8080', changeOrigin: true } } },
});
