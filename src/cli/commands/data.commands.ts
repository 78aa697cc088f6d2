import { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { ExportService } from '../../export/export.service';
import { ImportError } from '../../import/import-error';
import { ImportService } from '../../import/import.service';
import { withServices } from '../cli-session';
import { printResult, reportingFailure } from '../output';

/** `import FILE` and `export --team T`. */
export function registerDataCommands(program: Command): void {
  program
    .command('import')
    .description(
      'Create or update what a JSON document lists, by id, in one transaction; prints how many entries of each kind',
    )
    .argument('<file>', 'the JSON document ("-" reads stdin)')
    .action(
      reportingFailure(async (file: string) => {
        const document = await readDocument(file);
        printResult(await withServices((app) => app.get(ImportService).importDocument(document)));
      }),
    );

  program
    .command('export')
    .description('Print one workspace as an import document (token secrets are not included)')
    .requiredOption('--team <team_id>', 'the workspace')
    .action(
      reportingFailure(async ({ team }: { team: string }) => {
        printResult(await withServices((app) => app.get(ExportService).exportWorkspace(team)));
      }),
    );
}

async function readDocument(file: string): Promise<unknown> {
  const text = await readFile(file === '-' ? '/dev/stdin' : file, 'utf8').catch((error: Error) => {
    throw new ImportError(`Cannot read ${file}: ${error.message}`);
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImportError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}
