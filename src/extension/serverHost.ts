/** A server's host and port, as the tree's project rows and the status bar name it; the text as it is when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
