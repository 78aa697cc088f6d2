import { seedWorkspace, Workspace } from './fixtures';
import { createTestApp, TestApp } from './test-app';

/** What most spec files need: the app, a workspace to work in, and another whose tokens must get nowhere. */
export interface Scene {
  t: TestApp;
  ws: Workspace;
  other: Workspace;
}

/** Builds the scene before the file's tests and closes the app after them. */
export function useScene(): Scene {
  const scene = {} as Scene;
  beforeAll(async () => {
    scene.t = await createTestApp();
    scene.ws = await seedWorkspace(scene.t.app);
    scene.other = await seedWorkspace(scene.t.app);
  });
  afterAll(() => scene.t?.close());
  return scene;
}
