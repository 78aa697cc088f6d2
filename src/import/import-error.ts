/** Input the import or export commands cannot use; the message names the offending entry. */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }

  /** `pages[3] (id "12"): parent_page_id "99" is not a page of workspace acme` */
  static at(entry: string, problem: string): ImportError {
    return new ImportError(`${entry}: ${problem}`);
  }
}
