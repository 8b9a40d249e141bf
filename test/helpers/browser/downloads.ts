/**
 * Records the files the page downloads, as the widget saves a transcript (a Blob URL and an
 * `<a download>` link), without saving them.
 */
export function recordDownloads() {
  const blobs = new Map<string, Blob>();
  const files: { name: string; text: Promise<string> }[] = [];
  const create = URL.createObjectURL;
  URL.createObjectURL = (blob: Blob) => {
    const url = create(blob);
    blobs.set(url, blob);
    return url;
  };
  const onClick = (event: MouseEvent) => {
    const link = event.composedPath()[0];
    if (!(link instanceof HTMLAnchorElement) || !link.download) return;
    event.preventDefault();
    files.push({ name: link.download, text: blobs.get(link.href)!.text() });
  };
  document.addEventListener('click', onClick, true);
  return {
    files,
    stop() {
      URL.createObjectURL = create;
      document.removeEventListener('click', onClick, true);
    },
  };
}
