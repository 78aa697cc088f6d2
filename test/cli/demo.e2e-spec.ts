import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from '../support/test-app';
import { runCli } from './run-cli';
import { shellWords } from './shell-words';

const run = promisify(execFile);

interface Printed {
  title: string;
  line: string;
  argv: string[];
}

/** The `# title` and `curl ...` line pairs the demo printed, each command split into its words. */
function printedCommands(stdout: string): Printed[] {
  const lines = stdout.split('\n');
  return lines.flatMap((line, i) =>
    line.startsWith('curl ') ? [{ title: lines[i - 1].replace(/^# /, ''), line, argv: shellWords(line) }] : [],
  );
}

/** bash's own reading of a command line's words, to prove it is read the same way when pasted. */
async function bashWords(line: string): Promise<string[]> {
  const { stdout } = await run('bash', ['-c', `printf '%s\\0' ${line}`]);
  return stdout.split('\0').slice(0, -1);
}

interface Answer {
  title: string;
  status: number;
  body: Record<string, any>;
}

/** Runs each command with the real curl binary, in order; the demo's commands end with the status. */
async function execute(commands: Printed[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const { title, argv } of commands) {
    const { stdout } = await run(argv[0], argv.slice(1));
    const [, body, status] = /^([\s\S]*)\nHTTP (\d{3})\n$/.exec(stdout) ?? [];
    expect({ title, stdout, matched: status !== undefined }).toMatchObject({ matched: true });
    answers.push({ title, status: Number(status), body: body ? JSON.parse(body) : {} });
  }
  return answers;
}

describe('npm run cli -- demo', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = t.app.getHttpServer().address().port;
  });
  afterAll(() => t.close());

  it(
    'prints curl commands for every operation that succeed, ' +
      'for the PORT the service uses, and again after a reset',
    async () => {
      const demo = await runCli(['demo'], { PORT: String(port) });
      expect(demo).toMatchObject({ code: 0, stderr: '' });
      const commands = printedCommands(demo.stdout);
      for (const { line, argv } of commands) {
        expect(await bashWords(line)).toEqual(argv);
        expect(argv).toContainEqual(expect.stringMatching(`^http://localhost:${port}/v1/demo/`));
      }

      const first = await execute(commands);
      expectEveryOperationDone(first);
      // The shared page's URL is printed, and serves it to anyone.
      const url = /^# Then open the shared page in a browser, no token needed: (\S+)$/m.exec(demo.stdout)?.[1];
      const share = first.find(({ title }) => title.startsWith('Share page 1'))!;
      expect(url).toBe(`http://localhost:${port}/p/${share.body.page.alias_id}`);
      expect(share.body.page.public_settings.url).toMatch(/\/p\/de305d54-75b4-431b-adb2-eb6b9e546014$/);
      const shared = await fetch(url!.replace('localhost', '127.0.0.1'));
      expect([shared.status, await shared.text()]).toEqual([200, expect.stringContaining('<h1>Welcome</h1>')]);

      // A second run resets the workspace, so the same steps succeed again, here through --base-url.
      const again = await runCli(['demo', '--base-url', `http://127.0.0.1:${port}/`]);
      expect(again.code).toBe(0);
      const second = await execute(printedCommands(again.stdout));
      expect(second[2].body.page).toMatchObject({ title: 'Getting started', parent_page_id: '1' });
      expectEveryOperationDone(second);
    },
    60_000,
  );

  it('refuses a --base-url that is not an http(s) URL', async () => {
    const demo = await runCli(['demo', '--base-url', 'localhost:3000']);
    expect(demo.code).toBe(1);
    expect(demo.stderr).toMatch(/--base-url.*http\(s\) URL/);
    expect(demo.stdout).toBe('');
  });
});

function expectEveryOperationDone(answers: Answer[]): void {
  expect(answers.map(({ title, status }) => [title, status])).toEqual([
    ['Read the note template', 200],
    ['Update the note template: its title and sections', 200],
    ['Read page 2', 200],
    ['Rename page 2', 200],
    ['Move page 2 under page 3, as its first subpage', 200],
    ['Archive page 5', 200],
    ['Attach tags 2 and 3 to card 1', 204],
    ['Take tag 1 off card 1', 204],
    ['Read card 1, with its tags', 200],
    ['Share page 1 with anyone who has its link (public_settings.url)', 200],
    ['Create a page at the root of project 1', 201],
    ['List the pages, in tree order', 200],
    ['Copy page 4, under a new title, right after it', 201],
    ['Delete page 6', 204],
    ['Create a workspace-wide tag, named for this run', 201],
    ['List the tags', 200],
    ['Delete tag 4', 204],
    ['Create a note template', 201],
    ['List the note templates', 200],
    ['Delete note template weekly', 204],
  ]);
  const [, template, , renamed, moved, archived, , , card] = answers.map((a) => a.body);
  expect(template.note_template).toMatchObject({
    title: 'Daily standup (edited)',
    sections: [{ title: 'Done' }, { title: 'Next' }],
  });
  expect(renamed.page).toMatchObject({ title: 'First steps' });
  expect(moved.page).toMatchObject({ title: 'First steps', parent_page_id: '3', position: 0 });
  expect(archived.page).toMatchObject({ id: '5', archived: { user_id: 'demo-ada', parent_page_id: '' } });
  expect(card.card.tags.map((tag: { id: string }) => tag.id)).toEqual(['2', '3']);

  const [created, pageList, copy, , tag, tagList, , newTemplate, templateList] = answers.slice(10).map((a) => a.body);
  expect(created.page).toMatchObject({ title: 'Meeting notes', project_id: '1', parent_page_id: '' });
  const listedPages = pageList.pages.map((p: { id: string }) => p.id);
  expect(listedPages).toEqual(expect.arrayContaining([created.page.id, '1', '3', '4', '6']));
  expect(listedPages).not.toContain('5'); // archived
  expect(copy.page).toMatchObject({ title: 'Writing style (draft)', parent_page_id: '3', position: 2 });
  expect(copy.page.id).not.toBe('4');
  expect(tag.tag).toMatchObject({ name: expect.stringMatching(/^Release [0-9a-f]{8}$/), project_id: null });
  expect(tagList.tags.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([tag.tag.id, '4']));
  expect(newTemplate.note_template).toMatchObject({ title: 'Retrospective', sections: [{ title: 'Went well' }, {}] });
  const listedTemplates = templateList.note_templates.map((t: { id: string }) => t.id);
  expect(listedTemplates).toEqual(expect.arrayContaining([newTemplate.note_template.id, 'standup', 'weekly']));
}
