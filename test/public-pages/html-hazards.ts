import { parse, parseFragment } from 'parse5';

/** parse5's tree, as far as this check reads it. */
interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: Node[];
  content?: Node;
}

/** Elements that run, embed, submit, restyle or redirect: none may come out of the sanitiser. */
const HAZARDOUS_ELEMENTS = new Set(
  (
    'script style iframe frame frameset object embed applet form input button textarea select link meta base svg ' +
    'math noscript template bgsound xss'
  ).split(' '),
);
const URL_ATTRIBUTES = new Set(
  'href src action formaction xlink:href background dynsrc lowsrc poster data srcset cite codebase'.split(' '),
);
// eslint-disable-next-line no-control-regex -- browsers drop these before reading a URL's scheme
const IGNORED = /[\u0000-\u0020\u007f-\u009f]+/g;

/**
 * Everything in `html` (parsed as a browser parses it, by the HTML standard's algorithm) that could run
 * script or navigate to script: hazardous elements, event handlers, style attributes, and URLs with a
 * script scheme or a data: scheme (an image's data:image/* alone is fine). A fragment is parsed as
 * innerHTML would; a whole document is checked from its body down (the body's own attributes too).
 */
export function hazards(html: string, whole: 'fragment' | 'document' = 'fragment'): string[] {
  const found: string[] = [];
  const visit = (node: Node) => {
    if (node.tagName !== undefined) found.push(...elementHazards(node));
    for (const child of node.childNodes ?? []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(whole === 'document' ? documentParts(html).body : parseFragment(html));
  return found;
}

function elementHazards({ tagName, attrs }: Node): string[] {
  const found = HAZARDOUS_ELEMENTS.has(tagName!) ? [`<${tagName}>`] : [];
  for (const { name, value } of attrs ?? []) {
    if (/^on/i.test(name)) found.push(`${tagName} ${name}`);
    if (name === 'style') found.push(`${tagName} style`);
    if (!URL_ATTRIBUTES.has(name)) continue;
    const url = value.replace(IGNORED, '').toLowerCase();
    const imageData = tagName === 'img' && name === 'src' && /^data:image\/[a-z0-9.+-]+[;,]/.test(url);
    if (/^(java|vb|live)script:/.test(url) || (url.startsWith('data:') && !imageData))
      found.push(`${tagName} ${name}=${value}`);
  }
  return found;
}

/** The body and the head's elements of a whole document. */
export function documentParts(html: string): { head: Node[]; body: Node } {
  const root = parse(html) as unknown as Node;
  const htmlElement = root.childNodes!.find((n) => n.tagName === 'html')!;
  const [head, body] = ['head', 'body'].map((tag) => htmlElement.childNodes!.find((n) => n.tagName === tag)!);
  return { head: head.childNodes!.filter((n) => n.tagName !== undefined), body };
}
