// Registration parameters shared by POST /register and GET /events without a queue_id.
import * as z from 'zod';
import { p, type ParsedParams } from '../../http/params';
import type { ClientOptions, RegisterNarrow } from '../../events/queue';
import { validateRegisterNarrow } from '../../events/narrow-filter';

const narrowTerm = z.union([
  z.tuple([z.string(), z.union([z.string(), z.number()])]),
  z.object({
    operator: z.string(),
    operand: z.union([z.string(), z.number()]),
    negated: z.boolean().optional(),
  }),
]);

export const clientOptionsParams = {
  event_types: p.json(z.array(z.string())).optional(),
  apply_markdown: p.bool().default(false),
  client_gravatar: p.bool().default(true).alias('client_extavatar'),
  client_capabilities: p.json(z.record(z.string(), z.unknown())).optional(),
  narrow: p.json(z.array(narrowTerm)).default([]),
  all_public_streams: p.bool().default(false),
  slim_presence: p.bool().default(false),
  include_subscribers: p.bool().default(false),
};

export function clientOptionsFrom(
  params: ParsedParams<typeof clientOptionsParams>,
  clientName = 'API',
): ClientOptions {
  const capabilities: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(params.client_capabilities ?? {})) {
    capabilities[key] = value === true;
  }
  const narrow: RegisterNarrow = params.narrow
    // Negated terms are not applied to event delivery (api-notes §3.4).
    .filter((term) => Array.isArray(term) || !term.negated)
    .map((term) =>
      Array.isArray(term) ? [term[0], String(term[1])] : [term.operator, String(term.operand)],
    );
  validateRegisterNarrow(narrow);
  return {
    eventTypes: params.event_types ? new Set(params.event_types) : null,
    capabilities,
    applyMarkdown: params.apply_markdown,
    clientExtavatar: params.client_gravatar,
    narrow,
    allPublicStreams: params.all_public_streams,
    slimPresence: params.slim_presence,
    clientName,
  };
}
