// The admin page: reads the admin token from the URL fragment and renders the handler's admin
// routes into tables. Every value goes in through textContent, so nothing from the API can run.
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
const status = document.getElementById('admin-status');
const form = document.getElementById('range');
const PAGE_SIZE = 20;
const pages = { users: 1, sessions: 1 };

async function admin(path) {
  const response = await fetch(`/chatbot/admin/${path}`, { headers: { 'X-Admin-Token': token } });
  const body = await response.json().catch(() => ({ error: `The server answered ${response.status} without JSON.` }));
  if (!response.ok) throw new Error(body.error ?? body.title ?? `The server answered ${response.status}.`);
  return body;
}

/** Rows of cells; a cell is text, or a number (right-aligned, grouped by the visitor's locale). */
function fill(table, rows) {
  table.querySelector('tbody').replaceChildren(
    ...rows.map((cells) => {
      const tr = document.createElement('tr');
      for (const cell of cells) {
        const td = document.createElement('td');
        if (typeof cell === 'number') {
          td.className = 'number';
          td.textContent = cell.toLocaleString();
        } else {
          td.textContent = String(cell ?? '');
        }
        tr.append(td);
      }
      return tr;
    }),
  );
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');
const isoDay = (date) => date.toISOString().slice(0, 10);

function showPager(list, body) {
  const pager = document.querySelector(`.pager[data-list="${list}"]`);
  const total = body.totalPages ?? 0;
  pager.querySelector('span').textContent = total ? `Page ${body.currentPage} of ${total} (${body.totalItems} in all)` : 'None yet';
  pager.querySelector('[data-step="-1"]').disabled = (body.currentPage ?? 1) <= 1;
  pager.querySelector('[data-step="1"]').disabled = (body.currentPage ?? 1) >= total;
}

async function loadUsage() {
  const from = form.elements.from.value;
  const to = form.elements.to.value;
  const usage = await admin(`messages/count-by-month?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  fill(document.getElementById('usage'), (usage.data ?? []).map((m) => [m.month, m.messageCount, m.userMessageCount, m.distinctUsers, m.distinctSessions, m.tokenTotal]));
}

async function loadUsers() {
  const users = await admin(`users?page=${pages.users}&pageSize=${PAGE_SIZE}`);
  fill(document.getElementById('users'), (users.data ?? []).map((u) => [u.id, u.name, u.messageCount, when(u.lastMessageAt)]));
  showPager('users', users);
}

async function loadSessions() {
  const sessions = await admin(`sessions?page=${pages.sessions}&pageSize=${PAGE_SIZE}`);
  fill(document.getElementById('sessions'), (sessions.data ?? []).map((s) => [s.id, s.chatUserId, s.messageCount, when(s.createdAt), when(s.lastMessageAt)]));
  showPager('sessions', sessions);
}

async function run(task) {
  status.textContent = 'Loading…';
  try {
    await task();
    status.textContent = '';
  } catch (error) {
    status.textContent = error.message;
  }
}

for (const pager of document.querySelectorAll('.pager')) {
  pager.addEventListener('click', (event) => {
    const step = Number(event.target.closest('button')?.dataset.step ?? 0);
    if (!step) return;
    const list = pager.dataset.list;
    pages[list] = Math.max(1, pages[list] + step);
    run(list === 'users' ? loadUsers : loadSessions);
  });
}

const now = new Date();
form.elements.from.value = isoDay(new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1)));
form.elements.to.value = isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
form.addEventListener('submit', (event) => {
  event.preventDefault();
  run(loadUsage);
});

if (token) {
  run(() => Promise.all([loadUsage(), loadUsers(), loadSessions()]));
} else {
  status.textContent = 'No admin token: open the admin link that npm start printed (it ends in #token=…).';
}
