// Fills in the embed snippet with this server's own address, so a copied snippet works as pasted.
const origin = location.origin;
const snippet = `<script type="module" src="${origin}/chatbot-widget.js"></script>
<chatbot-widget endpoint="${origin}/chatbot" heading="Help"></chatbot-widget>`;
const code = document.getElementById('snippet');
const status = document.getElementById('copy-status');
code.textContent = snippet;

document.getElementById('copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(snippet);
    status.textContent = 'Copied.';
  } catch {
    // Clipboard access can be refused (permissions, insecure context): select the text instead.
    getSelection()?.selectAllChildren(code);
    status.textContent = 'Press Ctrl+C (or ⌘C) to copy the selected snippet.';
  }
});
