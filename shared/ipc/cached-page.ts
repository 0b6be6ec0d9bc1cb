// What a page of messages from main's cache settles. Its own module, apart from chat.ts: the
// renderer uses it too, and chat.ts's zod schemas must stay out of the page's bundle.
import type { MessagesPage } from './chat';

/**
 * Whether a page the cache answered settles the request: it has messages, or it is the whole
 * conversation, about one the cache kept. An empty page of a span that does not reach that far, or
 * about a conversation never kept, is worth asking the server for.
 */
export const cachedPageIsDecisive = (page: MessagesPage): boolean =>
  page.offline_coverage !== 'never' &&
  (page.messages.length > 0 || (!!page.found_oldest && !!page.found_newest));
