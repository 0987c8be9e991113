// Safe search highlights: Postgres ts_headline runs on the raw title with control-character
// delimiters (STX/ETX, stripped from the title first); here the result is HTML-escaped and only
// then are the delimiters turned into <em></em>. A title can never inject markup.

export const HL_START = "\u0002";
export const HL_STOP = "\u0003";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderHighlight(headline: string): string {
  return escapeHtml(headline).replaceAll(HL_START, "<em>").replaceAll(HL_STOP, "</em>");
}
