// SHA-256 of a text's UTF-8 bytes as lowercase hex: what the chat API's prev_content_sha256 holds.
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
