// Shared by the user group tests: the realm's system groups by name (role:members, ...).
import type { TestServer } from '../support/server';

export async function systemGroupIds(server: TestServer): Promise<Record<string, number>> {
  const res = await server.client('dev').get('/user_groups');
  const groups = res.body.user_groups as Array<{ id: number; name: string }>;
  return Object.fromEntries(groups.map((g) => [g.name, g.id]));
}
