// Copies the widget's files (dist/chatbot-widget.js and the chunks it loads from beside it) from
// the installed package into public/, which the Worker serves as static assets. wrangler runs it
// before `wrangler dev` and `wrangler deploy` ([build] in wrangler.toml), so a new version of the
// package is what visitors get.
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const WIDGET_FILE = /^chatbot-widget(?:-[\w-]+)?\.js$/;
const dist = new URL('.', import.meta.resolve('chatbot-widget/dist/chatbot-widget.js'));
const publicDir = new URL('./public/', import.meta.url);

for (const name of readdirSync(publicDir)) if (WIDGET_FILE.test(name)) rmSync(new URL(name, publicDir));
for (const name of readdirSync(dist)) if (WIDGET_FILE.test(name)) copyFileSync(new URL(name, dist), new URL(name, publicDir));
console.log(`copy-widget: the widget's files copied to ${fileURLToPath(publicDir)}`);
