// The admin page: <chatbot-usage> with the admin token from the link's #token=… fragment.
// The fragment is read on load and on every change (a second link pasted into the same tab), then
// removed from the address bar, so the token is neither in the history nor shown over a shoulder.
// It lives in this page's memory only: a reload needs the link again.
await customElements.whenDefined('chatbot-usage');
const usage = document.querySelector('chatbot-usage');
const status = document.getElementById('admin-status');

const NO_TOKEN =
  'No admin token: open the admin link that npm start printed (it ends in #token=…), or add #token=<CHATBOT_ADMIN_TOKEN> to this address.';

/** Takes a token from the fragment, if there is one, and removes the fragment from the address bar. */
function takeTokenFromHash() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token === null) return;
  history.replaceState(history.state, '', location.pathname + location.search);
  // Setting the property reloads the figures with the new token; the element's error line (and
  // only it) says when the token is refused, and clears itself on the next good answer.
  usage.adminToken = token.trim();
  show();
}

function show() {
  const hasToken = Boolean(usage.adminToken);
  usage.hidden = !hasToken;
  status.textContent = hasToken ? '' : NO_TOKEN;
}

window.addEventListener('hashchange', takeTokenFromHash);
takeTokenFromHash();
show();
