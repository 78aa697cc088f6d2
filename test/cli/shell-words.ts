/**
 * Splits one command line into its words as a POSIX shell would, for the quoting the demo prints:
 * blanks, '...', "..." and backslashes. Anything the shell would expand or treat as an operator,
 * outside quotes, is refused, so a line that parses here needs nothing but quoting to be pasted.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = closing(line, i, "'");
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = closing(line, i, '"');
      const inside = line.slice(i + 1, end);
      if (/[$`]/.test(inside)) throw new Error(`expansion inside double quotes at ${i}: ${line}`);
      word = (word ?? '') + inside.replace(/\\(["\\])/g, '$1');
      i = end;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/[|&;<>()$`*?[\]{}~#!\\]/.test(c)) {
      throw new Error(`unquoted ${c} at ${i}: ${line}`);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function closing(line: string, open: number, quote: string): number {
  // Inside double quotes a backslash escapes the quote; inside single quotes nothing does.
  for (let i = open + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote) return i;
  }
  throw new Error(`unclosed ${quote} at ${open}: ${line}`);
}
