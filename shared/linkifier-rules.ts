// Linkifier rules shared by the server (which enforces them) and Settings > Organization (which
// checks a draft as it is typed and shows the link its example produces): URL templates are RFC 6570
// (levels 1-3, no modifiers), patterns use Python's (?P<name>...) groups, every template variable
// must be a group of the pattern and back, and a reverse template must turn the groups the pattern
// takes from example_input back into example_input.

// RFC 6570 expressions: {var}, {+var}, {#var}, {/var}, {?a,b} ...
const EXPRESSION = /\{([+#./;?&]?)([A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)*)\}/g;

/** The variable names of a URI template, or null when it is not a valid template. */
export function templateVariables(template: string): string[] | null {
  if (template.trim() === '') return null;
  const withoutExpressions = template.replace(EXPRESSION, '');
  if (/[{}]/.test(withoutExpressions)) return null;
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) names.push(...match[2].split(','));
  return names;
}

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_all, operator: string, list: string) => {
    const parts = list.split(',').map((name) => {
      const value = values[name] ?? '';
      return operator === '+' || operator === '#' ? encodeURI(value) : encodeURIComponent(value);
    });
    const prefix = operator === '+' ? '' : operator;
    return prefix + parts.join(',');
  });
}

/** Python's (?P<name>...) spelled as JavaScript's (?<name>...); throws SyntaxError when invalid. */
export function compileLinkifierPattern(pattern: string): RegExp {
  return new RegExp(pattern.replace(/\(\?P</g, '(?<'), 'u');
}

function namedGroups(regex: RegExp): string[] {
  const names = [...regex.source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]);
  return [...new Set(names)];
}

export interface LinkifierDraft {
  pattern: string;
  url_template: string;
  reverse_template?: string | null;
  alternative_url_templates?: readonly string[];
  example_input?: string | null;
}

export type LinkifierCheck =
  | { ok: false; error: string }
  | {
      ok: true;
      /** The stored reverse template (null when none was given). */
      reverseTemplate: string | null;
      /** The link example_input produces, when one was given. */
      exampleUrl: string | null;
    };

/** The public server's checks, in its order, with its messages. */
export function checkLinkifier(draft: LinkifierDraft): LinkifierCheck {
  const fail = (error: string): LinkifierCheck => ({ ok: false, error });
  if (draft.pattern.trim() === '') return fail('Linkifier pattern cannot be blank');
  let regex: RegExp;
  try {
    regex = compileLinkifierPattern(draft.pattern);
  } catch (error) {
    return fail(`Invalid linkifier pattern: ${(error as Error).message}`);
  }
  const groups = namedGroups(regex);
  const variables = templateVariables(draft.url_template);
  if (variables === null) return fail('Invalid URL template.');
  for (const name of variables) {
    if (!groups.includes(name)) {
      return fail(`Group "${name}" in URL template is not present in linkifier pattern.`);
    }
  }
  for (const name of groups) {
    if (!variables.includes(name)) {
      return fail(`Group "${name}" in linkifier pattern is not present in URL template.`);
    }
  }
  for (const template of draft.alternative_url_templates ?? []) {
    if (templateVariables(template) === null) return fail('Invalid alternative URL template.');
  }
  const reverseTemplate = draft.reverse_template || null;
  const example = draft.example_input || null;
  const match = example === null ? null : new RegExp(`^(?:${regex.source})$`, 'u').exec(example);
  if (example !== null && !match) {
    return fail('example_input does not match the linkifier pattern');
  }
  if (reverseTemplate !== null) {
    if (templateVariables(reverseTemplate) === null) return fail('Invalid reverse template.');
    if (example === null || !match) {
      return fail('example_input is required when reverse_template is set');
    }
    const regenerated = expandTemplate(reverseTemplate, match.groups ?? {});
    if (regenerated !== example) {
      return fail(
        `Reverse template output '${regenerated}' does not match example_input '${example}'`,
      );
    }
  }
  return {
    ok: true,
    reverseTemplate,
    exampleUrl: match ? expandTemplate(draft.url_template, match.groups ?? {}) : null,
  };
}
