import { TagErrors } from './tag-errors';

/** The unique indexes of migration 0012: a name taken in its scope. */
const NAME_INDEXES = new Set(['tags_workspace_name_key', 'tags_project_name_key']);

function takenName(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const { code, constraint } = e?.driverError ?? e ?? {};
  return code === '23505' && constraint !== undefined && NAME_INDEXES.has(constraint);
}

/**
 * Runs a tag write, answering a name that a concurrent write took first (the unique index refused it
 * after waiting for that write) as the 409 it is, never a 500.
 */
export async function nameTakenOnWrite<T>(projectId: string | null | undefined, write: () => Promise<T>) {
  try {
    return await write();
  } catch (error) {
    if (takenName(error)) throw TagErrors.nameTaken(projectId);
    throw error;
  }
}
