import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { fromValidationErrors } from '../common/validation.pipe';
import { ImportDocument } from './dto/import-document.dto';
import { ImportError } from './import-error';

/** Characters PostgreSQL cannot store in text or jsonb: NUL and unpaired UTF-16 surrogates. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The document as typed entries, or an ImportError naming the first thing wrong with it. */
export async function validateDocument(input: unknown): Promise<ImportDocument> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ImportError('The import document must be a JSON object');
  }
  const unstorable = findUnstorableText(input, '');
  if (unstorable) throw new ImportError(`${unstorable} contains a NUL character or an unpaired surrogate, which cannot be stored`);
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

/** The path of the first key or string value that cannot be stored, if any. */
function findUnstorableText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (UNSTORABLE.test(key)) return childPath;
    const found = findUnstorableText(child, childPath);
    if (found) return found;
  }
  return undefined;
}
