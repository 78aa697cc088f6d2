/** A text that may hold a URL with its password replaced by `***`: what messages bound for logs show of a URL. */
export function withoutPassword(text: string): string {
  return text.replace(/^([a-z][\w+.-]*:\/\/[^/@:]*:)[^/@]*@/i, '$1***@');
}
