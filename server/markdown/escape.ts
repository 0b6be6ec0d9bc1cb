// HTML escaping as the public server serializes its element tree: text escapes &, < and > only
// (quotes stay as typed), attribute values also escape double quotes.

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
