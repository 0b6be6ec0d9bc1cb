// The realm configuration that Settings > Organization edits, as register, the list endpoints and
// the events carry it: linkifiers, code playgrounds and allowed e-mail domains.

/** register `realm_linkifiers`, GET /realm/linkifiers, the realm_linkifiers event. */
export interface RealmLinkifier {
  id: number;
  pattern: string;
  url_template: string;
  reverse_template?: string | null;
  alternative_url_templates?: string[];
  example_input?: string | null;
}

/** register `realm_playgrounds`, the realm_playgrounds event. */
export interface RealmPlayground {
  id: number;
  name: string;
  /** The code block language the playground opens. */
  pygments_language: string;
  url_template: string;
}

/** register `realm_domains`, the realm_domains event. */
export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}
