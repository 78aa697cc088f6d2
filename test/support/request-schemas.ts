interface Document {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The component schemas a request can carry: those a request body or a parameter refers to, and
 * those they refer to in turn. (Response-only schemas describe what the server sends, not what it accepts.)
 */
export function requestSchemaNames(document: Document): Set<string> {
  const names = new Set<string>();
  const pending: unknown[] = [];
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Array<{ requestBody?: unknown; parameters?: unknown }>) {
      pending.push(operation.requestBody, operation.parameters);
    }
  }
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || typeof node !== 'object') continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!names.has(name)) {
        names.add(name);
        pending.push(document.components?.schemas?.[name]);
      }
    }
    pending.push(...Object.values(node));
  }
  return names;
}

/** Whether a finding's JSON path lies in what a request carries (its body, its parameters, their schemas). */
export function isRequestSide(path: string[], requestSchemas: Set<string>): boolean {
  if (path[0] === 'components') return path[1] === 'schemas' && requestSchemas.has(path[2]);
  return path[0] === 'paths' && (path.includes('requestBody') || path.includes('parameters'));
}
