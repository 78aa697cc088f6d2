import { readFileSync } from 'node:fs';

/** The secrets that may come from a file (the Docker secrets convention): X_FILE names the file whose content is X. */
export const SECRET_FILE_VARIABLES = ['DATABASE_URL', 'WEBHOOK_SECRET_KEY', 'COLLABORATION_SECRET'] as const;

export interface SecretFiles {
  /** The environment with each X_FILE's content as X. */
  values: Record<string, string>;
  /** Configuration errors, one line each, naming the variable. */
  problems: Array<{ variable: string; text: string }>;
}

/**
 * Reads each X_FILE set in `env` into X, trailing newlines trimmed (an editor or `echo` adds one), so that
 * a secret need not be in the environment `docker inspect` shows. X and X_FILE both set, or a file that
 * cannot be read or is empty, is a problem naming X_FILE; the value read is validated as X would be.
 */
export function readSecretFiles(env: Record<string, string>): SecretFiles {
  const values = { ...env };
  const problems: SecretFiles['problems'] = [];
  for (const variable of SECRET_FILE_VARIABLES) {
    const fileVariable = `${variable}_FILE`;
    const file = env[fileVariable];
    if (file === undefined) continue;
    const named = `${fileVariable}=${JSON.stringify(file)}`;
    if (env[variable] !== undefined) {
      problems.push({ variable: fileVariable, text: `${named}: ${variable} is set too; set only one of them` });
      continue;
    }
    try {
      const content = readFileSync(file, 'utf8').replace(/(\r?\n)+$/, '');
      if (content === '') problems.push({ variable: fileVariable, text: `${named}: the file is empty` });
      else values[variable] = content;
    } catch (error) {
      problems.push({ variable: fileVariable, text: `${named}: cannot read it (${(error as Error).message})` });
    }
  }
  return { values, problems };
}
