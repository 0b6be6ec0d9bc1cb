// Role numbers (spec 2.3) and the system groups that mirror them.
export const Role = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const;

export const isOwner = (role: number) => role <= Role.owner;
export const isAdmin = (role: number) => role <= Role.administrator;
export const isModerator = (role: number) => role <= Role.moderator;
export const isGuest = (role: number) => role === Role.guest;

/**
 * System groups, outermost first. Each contains the next as its only subgroup, so role:members holds
 * every member, moderator, administrator and owner. Direct members are the users whose role is the
 * one in `directRole` (with no waiting period every member is a full member, so role:members has no
 * direct members of its own).
 */
export const SYSTEM_GROUPS = [
  { name: 'role:internet', description: 'Everyone on the Internet', directRole: null },
  { name: 'role:everyone', description: 'Everyone including guests', directRole: Role.guest },
  { name: 'role:members', description: 'Members of this organization', directRole: null },
  {
    name: 'role:fullmembers',
    description: 'Full members of this organization',
    directRole: Role.member,
  },
  {
    name: 'role:moderators',
    description: 'Moderators of this organization',
    directRole: Role.moderator,
  },
  {
    name: 'role:administrators',
    description: 'Administrators of this organization',
    directRole: Role.administrator,
  },
  { name: 'role:owners', description: 'Owners of this organization', directRole: Role.owner },
  { name: 'role:nobody', description: 'Nobody', directRole: null },
] as const;

export type SystemGroupName = (typeof SYSTEM_GROUPS)[number]['name'];
