// `/me` messages: the server marks them is_me_message and renders their content with the command
// still at the start (`<p>/me waves hello</p>`). The web app shows the sender's name followed by
// the rest as an action, so the command is taken off the rendered (already sanitized) HTML.
const ME_COMMAND = /^<p>\/me(?:\s+|(?=<\/p>))/;

/** The content of a /me message without its leading "/me". Removing text cannot add markup, so
 * this is safe after sanitizing. */
export function withoutMeCommand(html: string): string {
  return html.replace(ME_COMMAND, '<p>');
}
