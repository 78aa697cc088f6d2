import { Actor, SYSTEM_ACTOR } from '../common/actor';

/** Who created and last updated an imported row: its owner, through an import; built-ins: the system. */
export function importActor(ownerId: string | null): Actor {
  return ownerId === null ? SYSTEM_ACTOR : { user_id: ownerId, type: 'user', source: { type: 'import' } };
}

/** The created_by/updated_by columns of an imported row. */
export function importStamps(ownerId: string | null): { created_by: Actor; updated_by: Actor } {
  const actor = importActor(ownerId);
  return { created_by: actor, updated_by: actor };
}
