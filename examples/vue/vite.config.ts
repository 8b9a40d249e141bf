import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [
    vue({
      // Vue's template compiler must leave <chatbot-widget> to the browser: isCustomElement
      // belongs here, in the plugin's template options (not in app.config at runtime, which only
      // a build that compiles templates in the browser reads).
      template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('chatbot-') } },
    }),
  ],
  // The signing handler at /chatbot on the page's origin; in development Vite forwards it
  // (`npm start` in the chatbot-widget repository listens on 8080).
  server: { proxy: { '/chatbot': { target: process.env.CHATBOT_HANDLER_URL ?? 'http://localhost:8080', changeOrigin: true } } },
});
