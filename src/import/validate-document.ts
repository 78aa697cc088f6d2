import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { describeBodyProblem, findBodyProblem } from '../common/body-inspection';
import { fromValidationErrors } from '../common/validation.pipe';
import { ImportDocument } from './dto/import-document.dto';
import { ImportError } from './import-error';

/** The document as typed entries, or an ImportError naming the first thing wrong with it. */
export async function validateDocument(input: unknown): Promise<ImportDocument> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ImportError('The import document must be a JSON object');
  }
  const problem = findBodyProblem(input);
  if (problem) throw new ImportError(describeBodyProblem(problem));
  const document = plainToInstance(ImportDocument, input, { enableImplicitConversion: false });
  const errors = await validate(document, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw new ImportError(fromValidationErrors(errors).message);
  return document;
}
