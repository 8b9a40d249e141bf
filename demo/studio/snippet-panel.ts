/**
 * The snippets of the current configuration: a choice of which (script tag, React, Vue, Svelte,
 * a handler, the CSP line), the text as text, and a Copy button that falls back to selecting the
 * text where the clipboard is refused.
 */
import { allSnippets, type Snippet, type SnippetContext } from './snippets.js';
import type { StudioConfig } from './studio-config.js';

export class SnippetPanel {
  readonly #choice: HTMLSelectElement;
  readonly #file: HTMLElement;
  readonly #code: HTMLElement;
  readonly #status: HTMLElement;
  readonly #originNote: HTMLElement;
  readonly #context: SnippetContext;
  #snippets: Snippet[] = [];
  #rendering = Promise.resolve();

  constructor(root: HTMLElement, context: SnippetContext) {
    this.#choice = root.querySelector('select')!;
    this.#file = root.querySelector('.snippet-file')!;
    this.#code = root.querySelector('code')!;
    this.#status = root.querySelector('[role="status"]')!;
    this.#originNote = root.querySelector('.snippet-note')!;
    this.#context = context;
    this.#choice.addEventListener('change', () => this.#draw());
    root.querySelector('button')!.addEventListener('click', () => void this.#copy());
  }

  /** Resolves once the snippets of the latest configuration are shown. */
  get settled(): Promise<void> {
    return this.#rendering;
  }

  show(config: StudioConfig): void {
    this.#rendering = allSnippets(config, this.#context).then((snippets) => {
      this.#snippets = snippets;
      const chosen = this.#choice.value || 'html';
      this.#choice.replaceChildren(...snippets.map((s) => new Option(s.label, s.id, false, s.id === chosen)));
      this.#draw();
    });
  }

  #draw(): void {
    const snippet = this.#snippets.find((s) => s.id === this.#choice.value) ?? this.#snippets[0];
    this.#file.textContent = snippet?.file ? `File: ${snippet.file}` : '';
    this.#code.textContent = snippet?.text ?? '';
    // A snippet naming this server's origin works on another origin's page only when the handler allows it.
    this.#originNote.hidden = !snippet?.text.includes(this.#context.origin);
    this.#status.textContent = '';
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.#code.textContent ?? '');
      this.#status.textContent = 'Copied.';
    } catch {
      getSelection()?.selectAllChildren(this.#code);
      this.#status.textContent = 'Press Ctrl+C (or ⌘C) to copy the selected snippet.';
    }
  }
}
