// Registers <chatbot-widget> and declares it to vue-tsc (GlobalComponents); first, so that Vue
// finds the element defined and sets `strings` as a property.
import 'chatbot-widget/vue';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
