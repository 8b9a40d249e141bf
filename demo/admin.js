// The admin page: reads the admin token from the URL fragment and renders the handler's admin
// routes into tables. Every value goes in through textContent, so nothing from the API can run.
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
const status = document.getElementById('admin-status');
const form = document.getElementById('range');

async function admin(path) {
  const response = await fetch(`/chatbot/admin/${path}`, { headers: { 'X-Admin-Token': token } });
  const body = await response.json().catch(() => ({ error: `The server answered ${response.status} without JSON.` }));
  if (!response.ok) throw new Error(body.error ?? body.title ?? `The server answered ${response.status}.`);
  return body;
}

function fill(table, rows) {
  const body = table.querySelector('tbody');
  body.replaceChildren(
    ...rows.map((cells) => {
      const tr = document.createElement('tr');
      for (const cell of cells) {
        const td = document.createElement('td');
        td.textContent = String(cell);
        tr.append(td);
      }
      return tr;
    }),
  );
}

const isoDay = (date) => date.toISOString().slice(0, 10);

async function load() {
  if (!token) {
    status.textContent = 'No admin token: open the admin link that `npm start` printed (it ends in #token=…).';
    return;
  }
  status.textContent = 'Loading…';
  const from = form.elements.from.value;
  const to = form.elements.to.value;
  try {
    const [usage, users] = await Promise.all([
      admin(`messages/count-by-month?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
      admin('users?page=1&pageSize=20'),
    ]);
    fill(document.getElementById('usage'), (usage.data ?? []).map((m) => [m.month, m.messageCount, m.userMessageCount, m.distinctUsers, m.distinctSessions, m.tokenTotal]));
    fill(document.getElementById('users'), (users.data ?? []).map((u) => [u.id, u.name, u.messageCount, new Date(u.lastMessageAt).toLocaleString()]));
    status.textContent = `${users.totalItems ?? 0} users in all.`;
  } catch (error) {
    status.textContent = error.message;
  }
}

const now = new Date();
form.elements.from.value = isoDay(new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1)));
form.elements.to.value = isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
form.addEventListener('submit', (event) => {
  event.preventDefault();
  load();
});
load();
