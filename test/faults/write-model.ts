import { Workspace } from '../support/fixtures';

/**
 * The writes of the load run and what each one, if it took effect, makes the data look like. Every
 * client owns its resources (one set per phase of the run) and numbers its writes 1, 2, 3, ..., so
 * the state of a resource follows from which of its writes succeeded. Each write changes two or more
 * fields at once: a failed one that left some of them behind shows up as a state no sequence of
 * whole writes produces.
 */

export const TAG_POOL = 400;

/** The resources of client `c` in phase `set`. Page and card ids are numbers of their own for each. */
export function resourcesOf(c: number, set: number) {
  const base = 10_000 + c * 100 + set * 10;
  return {
    project: `p${c}`,
    template: `tpl-c${c}-s${set}`,
    parent: String(base),
    children: [String(base + 1), String(base + 2), String(base + 3)],
    card: String(base + 5),
  };
}

/** The import document for `clients` clients with `sets` resource sets each, all in their seeded state. */
export function seedDocument(ws: Workspace, clients: number, sets: number): object {
  const all = Array.from({ length: clients }, (_, c) =>
    Array.from({ length: sets }, (_, s) => ({ c, ...resourcesOf(c, s) })),
  ).flat();
  return {
    projects: Array.from({ length: clients }, (_, c) => ({
      team_id: ws.teamId,
      id: `p${c}`,
      title: `Project of client ${c}`,
    })),
    tags: Array.from({ length: TAG_POOL }, (_, i) => ({
      team_id: ws.teamId,
      id: String(i + 1),
      project_id: null,
      name: `Tag ${i + 1}`,
      color: 'red',
    })),
    note_templates: all.map((r) => ({
      team_id: ws.teamId,
      id: r.template,
      owner_id: ws.users.member,
      ...templateView(0),
    })),
    pages: all.flatMap((r) => [
      {
        team_id: ws.teamId,
        id: r.parent,
        project_id: r.project,
        parent_page_id: '',
        title: 'p0',
        owner_id: ws.users.owner,
        archived: false,
        members: [],
        hide_subpages: false,
      },
      ...r.children.map((id) => ({
        team_id: ws.teamId,
        id,
        project_id: r.project,
        parent_page_id: r.parent,
        title: 'k0',
        owner_id: ws.users.owner,
        archived: false,
        members: [],
      })),
    ]),
    cards: all.map((r) => ({
      team_id: ws.teamId,
      id: r.card,
      project_id: r.project,
      title: 'A card',
      owner_id: ws.users.owner,
      members: [ws.users.owner],
      tags: [],
    })),
  };
}

// ---- the states, as the API shows them ----

export function templateView(n: number) {
  return { title: `t${n}`, context: `c${n}`, sections: [{ title: `s${n}`, description: '' }], ai_actions: n % 2 === 1 };
}

export interface FamilyState {
  parent: { title: string; hide_subpages: boolean };
  /** Child ids in sibling order, each with its title. */
  children: Array<{ id: string; title: string }>;
}

export function seededFamily(children: string[]): FamilyState {
  return { parent: { title: 'p0', hide_subpages: false }, children: children.map((id) => ({ id, title: 'k0' })) };
}

/** Card state: the tag ids in the order attached. */
export type CardState = string[];

// ---- the writes ----

export interface Write {
  /** Which resource it changes: `template:<id>`, `family:<parent id>` or `card:<id>`. */
  resource: string;
  method: 'PATCH' | 'POST';
  path: string;
  body: object;
  /** 200 or 204. */
  okStatus: number;
  /** The resource's state after this write, from its state before. */
  apply(state: unknown): unknown;
}

/**
 * Write number `n` of client `c` on its resource set `set`: templates, page titles, page moves and card
 * tags in turn.
 */
export function writeFor(teamId: string, c: number, set: number, n: number, attachesSoFar: number): Write {
  const r = resourcesOf(c, set);
  const kind = n % 4;
  if (kind === 3 && 2 * attachesSoFar + 2 <= TAG_POOL) {
    const ids = [String(2 * attachesSoFar + 1), String(2 * attachesSoFar + 2)];
    return {
      resource: `card:${r.card}`,
      method: 'POST',
      path: `/v1/${teamId}/cards/${r.card}/tags`,
      body: { ids },
      okStatus: 204,
      apply: (state) => [...(state as CardState), ...ids.filter((id) => !(state as CardState).includes(id))],
    };
  }
  if (kind === 1) {
    const body = { title: `p${n}`, hide_subpages: n % 2 === 1 };
    return {
      resource: `family:${r.parent}`,
      method: 'PATCH',
      path: `/v1/${teamId}/pages/${r.parent}`,
      body,
      okStatus: 200,
      apply: (state) => ({ ...(state as FamilyState), parent: body }),
    };
  }
  if (kind === 2) {
    const child = r.children[n % 3];
    const position = Math.floor(n / 4) % 4; // 3 is past the end: last
    const title = `k${n}`;
    return {
      resource: `family:${r.parent}`,
      method: 'PATCH',
      path: `/v1/${teamId}/pages/${child}`,
      body: { title, position },
      okStatus: 200,
      apply: (state) => {
        const family = state as FamilyState;
        const others = family.children.filter((x) => x.id !== child);
        others.splice(Math.min(position, others.length), 0, { id: child, title });
        return { ...family, children: others };
      },
    };
  }
  const view = templateView(n);
  return {
    resource: `template:${r.template}`,
    method: 'PATCH',
    path: `/v1/${teamId}/notes/templates/${r.template}`,
    body: view,
    okStatus: 200,
    apply: () => view,
  };
}

/**
 * Every state a resource may be in, given its writes in order: the successful ones took effect, the
 * failed ones did not, and an in-doubt one (its connection died while it may have been committing)
 * either did or did not.
 */
export function possibleStates(
  seed: unknown,
  writes: Array<{ write: Write; fate: 'ok' | 'failed' | 'in-doubt' }>,
): unknown[] {
  let states = [seed];
  for (const { write, fate } of writes) {
    if (fate === 'ok') states = states.map((s) => write.apply(s));
    if (fate === 'in-doubt') states = [...states, ...states.map((s) => write.apply(s))];
    const seen = new Set<string>();
    states = states.filter((s) => !seen.has(JSON.stringify(s)) && seen.add(JSON.stringify(s)) !== undefined);
  }
  return states;
}
