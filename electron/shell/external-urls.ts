// Which links the app may hand to the operating system (shell.openExternal, xdg-open): web pages and
// mail only, never file:, app-specific schemes or anything a handler could turn into a command.
export function isAllowedExternalUrl(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
