// Realm configuration edited from the settings screens: linkifiers (4.18; add, edit, delete,
// reorder), code playgrounds (4.20) and allowed email domains (4.21), with their register state and
// events.
import * as z from 'zod';
import type { Db } from '../../db';
import { parseJson } from '../../db';
import type { ResourceModule } from '../module';
import { p } from '../../http/params';
import { badRequest } from '../../http/errors';
import { isOwner } from '../../realm/roles';
import { requireAdmin } from '../../realm/permissions';
import type { RealmContext } from '../../realm/context';
import { activeUserIds } from '../users/users-store';
import { enumeratesAllIds, storeOrder } from '../../realm/ordering';
import type { RealmPlayground } from '../../../shared/api/realm-config';
import {
  checkLinkifier,
  compileLinkifierPattern,
  templateVariables,
  type LinkifierDraft,
} from '../../../shared/linkifier-rules';

interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
  reverse_template: string | null;
  alternative_url_templates: string;
  example_input: string | null;
}

interface PlaygroundRow {
  id: number;
  name: string;
  lexer_language: string;
  url_template: string;
}

interface DomainRow {
  id: number;
  domain: string;
  allow_subdomains: number;
}

/** A linkifier pattern as a JavaScript RegExp; an invalid one is the caller's BAD_REQUEST. */
export function compilePattern(pattern: string): RegExp {
  try {
    return compileLinkifierPattern(pattern);
  } catch (error) {
    throw badRequest(`Invalid linkifier pattern: ${(error as Error).message}`);
  }
}

function linkifierObject(row: LinkifierRow): Record<string, unknown> {
  return {
    id: row.id,
    pattern: row.pattern,
    url_template: row.url_template,
    reverse_template: row.reverse_template,
    alternative_url_templates: parseJson<string[]>(row.alternative_url_templates, []),
    example_input: row.example_input,
  };
}

function listLinkifiers(db: Db): Record<string, unknown>[] {
  return db
    .prepare<[], LinkifierRow>('SELECT * FROM linkifiers ORDER BY sort_order, id')
    .all()
    .map(linkifierObject);
}

/** The realm's playgrounds with the public field name (pygments_language; the spec's lexer_language). */
function listPlaygrounds(db: Db): RealmPlayground[] {
  return db
    .prepare<[], PlaygroundRow>('SELECT * FROM code_playgrounds ORDER BY id')
    .all()
    .map(({ lexer_language, ...rest }) => ({ ...rest, pygments_language: lexer_language }));
}

function listDomains(db: Db): Array<{ domain: string; allow_subdomains: boolean }> {
  return db
    .prepare<[], DomainRow>('SELECT * FROM realm_domains ORDER BY domain')
    .all()
    .map((row) => ({ domain: row.domain, allow_subdomains: row.allow_subdomains === 1 }));
}

function sendLinkifiers(ctx: RealmContext): void {
  const linkifiers = listLinkifiers(ctx.db);
  // Clients without linkifier_url_template get no linkifier events (api-notes §1.2).
  ctx.events.send(activeUserIds(ctx.db), (queue) =>
    queue.hasCapability('linkifier_url_template')
      ? { type: 'realm_linkifiers', realm_linkifiers: linkifiers }
      : null,
  );
}

function validateLinkifier(params: LinkifierDraft): { reverseTemplate: string | null } {
  const checked = checkLinkifier(params);
  if (!checked.ok) throw badRequest(checked.error);
  return { reverseTemplate: checked.reverseTemplate };
}

const LINKIFIER_PARAMS = {
  pattern: p.string(),
  url_template: p.string(),
  reverse_template: p.string().optional(),
  alternative_url_templates: p.json(z.array(z.string())).optional(),
  example_input: p.string().optional(),
};

/** pattern, url_template, reverse_template, alternative_url_templates, example_input. */
function linkifierColumns(
  params: {
    pattern: string;
    url_template: string;
    alternative_url_templates?: string[];
    example_input?: string;
  },
  reverseTemplate: string | null,
): Array<string | null> {
  return [
    params.pattern,
    params.url_template,
    reverseTemplate,
    JSON.stringify(params.alternative_url_templates ?? []),
    params.example_input || null,
  ];
}

function assertNoDuplicateLinkifier(
  db: Db,
  linkifier: { pattern: string; url_template: string },
  exceptId: number | null,
): void {
  const other = db
    .prepare<[string, string, number], { id: number }>(
      'SELECT id FROM linkifiers WHERE pattern = ? AND url_template = ? AND id != ?',
    )
    .get(linkifier.pattern, linkifier.url_template, exceptId ?? -1);
  if (other) throw badRequest('Linkifier with this pattern and URL template already exists.');
}

export const realmConfigResource: ResourceModule = {
  name: 'realm-config',
  routes(api, ctx) {
    api.get('/realm/linkifiers', {}, () => ({ linkifiers: listLinkifiers(ctx.db) }));

    // The deprecated list: [pattern, url_template, id] triples (zulip-js still calls it).
    api.get('/realm/filters', {}, () => ({
      filters: listLinkifiers(ctx.db).map((l) => [l.pattern, l.url_template, l.id]),
    }));

    api.post('/realm/filters', { params: LINKIFIER_PARAMS }, ({ user, params }) => {
      requireAdmin(user);
      const { reverseTemplate } = validateLinkifier(params);
      assertNoDuplicateLinkifier(ctx.db, params, null);
      const id = Number(
        ctx.db
          .prepare(
            `INSERT INTO linkifiers (pattern, url_template, reverse_template, alternative_url_templates,
               example_input, sort_order)
             VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM linkifiers))`,
          )
          .run(...linkifierColumns(params, reverseTemplate)).lastInsertRowid,
      );
      sendLinkifiers(ctx);
      return { id };
    });

    api.patch(
      '/realm/filters/:filter_id',
      { ids: ['filter_id'], params: LINKIFIER_PARAMS },
      ({ user, ids, params }) => {
        requireAdmin(user);
        if (!ctx.db.prepare('SELECT 1 FROM linkifiers WHERE id = ?').get(ids.filter_id)) {
          throw badRequest('Linkifier not found.');
        }
        const { reverseTemplate } = validateLinkifier(params);
        assertNoDuplicateLinkifier(ctx.db, params, ids.filter_id);
        ctx.db
          .prepare(
            `UPDATE linkifiers SET pattern = ?, url_template = ?, reverse_template = ?,
               alternative_url_templates = ?, example_input = ? WHERE id = ?`,
          )
          .run(...linkifierColumns(params, reverseTemplate), ids.filter_id);
        sendLinkifiers(ctx);
      },
    );

    api.patch(
      '/realm/linkifiers',
      { params: { ordered_linkifier_ids: p.json(z.array(z.number().int())) } },
      ({ user, params }) => {
        requireAdmin(user);
        const wanted = params.ordered_linkifier_ids;
        if (new Set(wanted).size < wanted.length) {
          throw badRequest('The ordered list must not contain duplicated linkifiers');
        }
        if (!enumeratesAllIds(ctx.db, 'linkifiers', wanted)) {
          throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
        }
        storeOrder(ctx.db, 'linkifiers', wanted);
        sendLinkifiers(ctx);
      },
    );

    api.delete('/realm/filters/:filter_id', { ids: ['filter_id'] }, ({ user, ids }) => {
      requireAdmin(user);
      const removed = ctx.db.prepare('DELETE FROM linkifiers WHERE id = ?').run(ids.filter_id);
      if (removed.changes === 0) throw badRequest('Linkifier not found.');
      sendLinkifiers(ctx);
    });

    api.post(
      '/realm/playgrounds',
      {
        params: {
          name: p.string(),
          // Third-party clients send the public name; the spec writes it lexer_language.
          pygments_language: p.string().alias('lexer_language'),
          url_template: p.string(),
        },
      },
      ({ user, params }) => {
        requireAdmin(user);
        const name = params.name.trim();
        const language = params.pygments_language.trim();
        if (name === '') throw badRequest('Name cannot be blank');
        if (language === '') throw badRequest('Language cannot be blank');
        const variables = templateVariables(params.url_template);
        if (variables === null) throw badRequest('Invalid URL template.');
        if (variables.length !== 1 || variables[0] !== 'code') {
          throw badRequest(
            'Code playground URL template must contain exactly one variable named "code".',
          );
        }
        const exists = ctx.db
          .prepare('SELECT 1 FROM code_playgrounds WHERE lexer_language = ? AND name = ?')
          .get(language, name);
        if (exists)
          throw badRequest('A code playground with this language and name already exists.');
        const id = Number(
          ctx.db
            .prepare(
              'INSERT INTO code_playgrounds (name, lexer_language, url_template) VALUES (?, ?, ?)',
            )
            .run(name, language, params.url_template).lastInsertRowid,
        );
        ctx.events.send(activeUserIds(ctx.db), {
          type: 'realm_playgrounds',
          realm_playgrounds: listPlaygrounds(ctx.db),
        });
        return { id };
      },
    );

    api.delete('/realm/playgrounds/:playground_id', { ids: ['playground_id'] }, ({ user, ids }) => {
      requireAdmin(user);
      const removed = ctx.db
        .prepare('DELETE FROM code_playgrounds WHERE id = ?')
        .run(ids.playground_id);
      if (removed.changes === 0) throw badRequest('Invalid playground');
      ctx.events.send(activeUserIds(ctx.db), {
        type: 'realm_playgrounds',
        realm_playgrounds: listPlaygrounds(ctx.db),
      });
    });

    api.get('/realm/domains', {}, () => ({ domains: listDomains(ctx.db) }));

    api.post(
      '/realm/domains',
      { params: { domain: p.string(), allow_subdomains: p.bool() } },
      ({ user, params }) => {
        if (!isOwner(user.role)) throw badRequest('Must be an organization owner');
        const domain = params.domain.trim().toLowerCase();
        if (
          !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(
            domain,
          )
        ) {
          throw badRequest(`Invalid domain: ${params.domain}`);
        }
        if (ctx.db.prepare('SELECT 1 FROM realm_domains WHERE domain = ?').get(domain)) {
          throw badRequest(`The domain ${domain} is already a part of your organization.`);
        }
        const id = Number(
          ctx.db
            .prepare('INSERT INTO realm_domains (domain, allow_subdomains) VALUES (?, ?)')
            .run(domain, params.allow_subdomains ? 1 : 0).lastInsertRowid,
        );
        ctx.events.send(activeUserIds(ctx.db), {
          type: 'realm_domains',
          op: 'add',
          realm_domain: { domain, allow_subdomains: params.allow_subdomains },
        });
        return { new_domain: [id, domain] };
      },
    );

    api.patch(
      '/realm/domains/:domain',
      { params: { allow_subdomains: p.bool() } },
      ({ user, params, path }) => {
        if (!isOwner(user.role)) throw badRequest('Must be an organization owner');
        const domain = decodeURIComponent(path.domain ?? '').toLowerCase();
        const changed = ctx.db
          .prepare('UPDATE realm_domains SET allow_subdomains = ? WHERE domain = ?')
          .run(params.allow_subdomains ? 1 : 0, domain);
        if (changed.changes === 0) throw badRequest(`No entry found for domain ${domain}.`);
        ctx.events.send(activeUserIds(ctx.db), {
          type: 'realm_domains',
          op: 'change',
          realm_domain: { domain, allow_subdomains: params.allow_subdomains },
        });
      },
    );

    api.delete('/realm/domains/:domain', {}, ({ user, path }) => {
      if (!isOwner(user.role)) throw badRequest('Must be an organization owner');
      const domain = decodeURIComponent(path.domain ?? '').toLowerCase();
      const removed = ctx.db.prepare('DELETE FROM realm_domains WHERE domain = ?').run(domain);
      if (removed.changes === 0) throw badRequest(`No entry found for domain ${domain}.`);
      ctx.events.send(activeUserIds(ctx.db), { type: 'realm_domains', op: 'remove', domain });
    });
  },

  initialState(ctx, _user, request) {
    const state: Record<string, unknown> = {};
    if (request.wants('realm_linkifiers')) {
      state.realm_linkifiers = request.capabilities.linkifier_url_template
        ? listLinkifiers(ctx.db)
        : [];
    }
    if (request.wants('realm_playgrounds')) state.realm_playgrounds = listPlaygrounds(ctx.db);
    if (request.wants('realm_domains')) state.realm_domains = listDomains(ctx.db);
    return state;
  },
};
