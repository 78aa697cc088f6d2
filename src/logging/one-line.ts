/** A message of several lines (a heading, then one line per problem) as one: `heading first; second`. */
export function oneLine(message: string): string {
  const [first, ...rest] = message.split('\n').map((line) => line.trim());
  return [first, rest.filter(Boolean).join('; ')].filter(Boolean).join(' ');
}
