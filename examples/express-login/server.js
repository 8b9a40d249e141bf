// Signed-in visitors: the signing handler speaks for the site's own login (`identify`), so a user
// sees the same conversations on every device they sign in on. `npm install`, then `npm start`
// (see README.md). The login is a stand-in for yours: a form that takes a name, no password.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createExpressHandler } from 'chatbot-widget/server/express';

const SESSION_COOKIE = 'sid';
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/**
 * Signs session cookies. Set SESSION_SECRET to keep sessions across restarts (and alike on every
 * instance); without it each start makes its own, and everyone signs in again.
 */
const SESSION_SECRET = process.env.SESSION_SECRET || randomBytes(32).toString('hex');
/** Session id → user name. Your site keeps these in its own session store. */
const sessions = new Map();

const sign = (id) => createHmac('sha256', SESSION_SECRET).update(id).digest('base64url');

/** The session id of a request's cookie, when its signature holds (compared in constant time). */
function sessionIdOf(cookieHeader = '') {
  const value = cookieHeader
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === SESSION_COOKIE)?.[1];
  const [id, signature] = (value ?? '').split('.');
  if (!id || !signature) return undefined;
  const expected = Buffer.from(sign(id));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}

/** The signed-in user of a request (Express's or a Web `Request`), or undefined. */
const userOf = (cookieHeader) => sessions.get(sessionIdOf(cookieHeader));

/** A form posted from another site (its Origin says so) is refused: no login or logout forced on a visitor. */
function fromThisSite(req) {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false; // `null` and other opaque origins
  }
}

const app = express();

// Mounted before any body parser: the handler reads and caps request bodies itself. Its
// `identify` reads the same session cookie as the site: the signed-in user is the chat's user,
// and a request that is not signed in gets a 401 (the widget then asks the visitor to sign in).
app.use(
  createExpressHandler({
    apiBaseUrl: process.env.CHATBOT_API_BASE_URL, // ends in /api
    apiKey: process.env.CHATBOT_API_KEY, // pk_…
    apiSecret: process.env.CHATBOT_API_SECRET, // sk_…: stays on this server
    chatbotId: process.env.CHATBOT_ID,
    identify(request) {
      const user = userOf(request.headers.get('cookie') ?? undefined);
      return user ? { userId: `member:${user}`, name: user } : null;
    },
  }),
);

app.post('/login', express.urlencoded({ extended: false, limit: '1kb' }), (req, res) => {
  const name = typeof req.body?.name === 'string' ? req.body.name.trim().slice(0, 60) : '';
  if (!fromThisSite(req) || !name) return res.status(400).type('text').send('Write a user name to sign in.');
  const previous = sessionIdOf(req.headers.cookie);
  if (previous) sessions.delete(previous);
  const id = randomBytes(32).toString('base64url'); // unguessable
  sessions.set(id, name);
  res.cookie(SESSION_COOKIE, `${id}.${sign(id)}`, {
    httpOnly: true, // out of reach of the page's scripts
    sameSite: 'lax', // not sent with another site's requests to this one (forms, fetches)
    secure: req.secure, // https only, where the site is served over https
    maxAge: SESSION_MAX_AGE_SECONDS * 1000,
    path: '/',
  });
  res.redirect(303, '/');
});

app.post('/logout', (req, res) => {
  if (!fromThisSite(req)) return res.status(400).type('text').send('Sign out from this site’s own page.');
  const id = sessionIdOf(req.headers.cookie);
  if (id) sessions.delete(id);
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  res.redirect(303, '/');
});

// The widget's files as the package ships them (see examples/express).
const widgetFiles = new URL('.', import.meta.resolve('chatbot-widget/dist/chatbot-widget.js'));
const WIDGET_FILE = /^\/chatbot-widget(?:-[\w-]+)?\.js$/;
const widgetCaching = (path) => (path === '/chatbot-widget.js' ? 'no-cache' : 'public, max-age=31536000, immutable');
app.get(WIDGET_FILE, (req, res, next) => {
  const file = fileURLToPath(new URL(`.${req.path}`, widgetFiles));
  res.sendFile(file, { cacheControl: false, headers: { 'Cache-Control': widgetCaching(req.path) } }, (error) => error && next());
});

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

app.get('/', (req, res) => {
  const user = userOf(req.headers.cookie);
  const account = user
    ? `<p>Signed in as <strong id="user">${escapeHtml(user)}</strong>.</p>
<form method="post" action="/logout"><button>Sign out</button></form>`
    : `<form method="post" action="/login"><label>User name <input name="name" autocomplete="username" required maxlength="60"></label>
<button>Sign in</button></form>`;
  // The widget on every page, signed in or not: signed out, it asks the visitor to sign in.
  res.set('Cache-Control', 'no-store').type('html').send(`<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>chatbot-widget with a login</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
${account}
<chatbot-widget endpoint="/chatbot" heading="Ask us"></chatbot-widget>
`);
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot, sign in at /)`));
