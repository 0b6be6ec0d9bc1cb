// RealmContext is what every resource module receives: the database, the event hub, the resolved
// configuration and the realm's public URL. It owns no domain state itself.
import type { Db } from '../db';
import type { RealmConfig } from '../config';
import type { EventHub } from '../events/hub';

export interface RealmContext {
  db: Db;
  config: RealmConfig;
  events: EventHub;
  dataDir: string;
  uploadsDir: string;
  /** http://host:port of the running server (set once listening). */
  realmUrl: string;
  /** UNIX seconds; one place so tests of time-based rules can reason about it. */
  nowSeconds(): number;
}

/** The authenticated caller, as read from the users table. */
export interface AuthUser {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_active: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  can_create_users: boolean;
}
