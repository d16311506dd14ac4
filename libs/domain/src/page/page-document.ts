import { parseDocument } from 'htmlparser2';
import * as Y from 'yjs';

/** htmlparser2's DOM node and element (its `domhandler` types). */
type ChildNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<ChildNode, { name: string; attribs: Record<string, string> }>;

/**
 * A page's editor document, in the three forms Plane keeps (`description_binary`,
 * `description_html`, `description`): the Y.js document the web app's editor edits, and the HTML
 * and ProseMirror JSON derived from it.
 *
 * The editor (Plane 0.25.3 `@plane/editor`, tiptap over y-prosemirror) keeps the document in the
 * `default` XML fragment: one `Y.XmlElement` per node, named as the node type (`paragraph`,
 * `heading`, `bulletList`, …) with the node's non-null attributes, and one `Y.XmlText` per text
 * run whose formatting attributes are the marks (`{bold: {}, link: {href}}`). Plane's live server
 * derives HTML and JSON with tiptap's schema (`getAllDocumentFormatsFromBinaryData`); this module
 * walks the fragment instead, writing the same node and mark types as Plane's editor renders them
 * (tags and classes of `CoreEditorExtensionsWithoutProps`), so no DOM or editor schema is needed on
 * the server and a node type it does not know is kept (rendered as an element of its own name)
 * rather than dropped.
 */

/** ProseMirror's JSON form of a node (Plane's `description`). */
export interface EditorJson {
  type: string;
  attrs?: Record<string, unknown>;
  content?: EditorJson[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}

/** The XML fragment the editor binds (y-prosemirror's `ySyncPlugin` on `doc.getXmlFragment('default')`). */
export const EDITOR_FRAGMENT = 'default';

/** `description_html` and `description` (JSON) of a Y.js document given as an update (`description_binary`). */
export function renderDocument(binary: Uint8Array): { html: string; json: EditorJson } {
  const doc = new Y.Doc();
  try {
    if (binary.byteLength > 0) Y.applyUpdate(doc, binary);
    return renderFragment(doc.getXmlFragment(EDITOR_FRAGMENT));
  } finally {
    doc.destroy();
  }
}

/** HTML and JSON of the editor's fragment. */
export function renderFragment(fragment: Y.XmlFragment): { html: string; json: EditorJson } {
  const content = fragment.toArray().flatMap(nodeJson);
  const json: EditorJson = { type: 'doc', content };
  return { html: content.map(nodeHtml).join(''), json };
}

// ---------------------------------------------------------------------------------------------
// Y.js → JSON

function nodeJson(item: Y.XmlElement | Y.XmlText | Y.XmlHook): EditorJson[] {
  if (item instanceof Y.XmlText) return textJson(item);
  if (item instanceof Y.XmlElement) {
    const out: EditorJson = { type: item.nodeName };
    const attrs = item.getAttributes() as Record<string, unknown>;
    if (Object.keys(attrs).length > 0) out.attrs = attrs;
    const content = item.toArray().flatMap(nodeJson);
    if (content.length > 0) out.content = content;
    return [out];
  }
  return [];
}

function textJson(text: Y.XmlText): EditorJson[] {
  const out: EditorJson[] = [];
  for (const op of text.toDelta() as Array<{ insert: unknown; attributes?: Record<string, unknown> }>) {
    if (typeof op.insert !== 'string' || op.insert === '') continue;
    const node: EditorJson = { type: 'text', text: op.insert };
    const marks = Object.entries(op.attributes ?? {}).map(([name, value]) => {
      // y-prosemirror names overlapping marks of one type `type--<hash>`
      const mark: { type: string; attrs?: Record<string, unknown> } = { type: name.replace(/--[^-]+$/, '') };
      if (value && typeof value === 'object' && Object.keys(value).length > 0)
        mark.attrs = value as Record<string, unknown>;
      return mark;
    });
    if (marks.length > 0) node.marks = marks;
    out.push(node);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON → HTML (Plane's `generateHTML` with the editor's extensions)

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** ` name="value"` for each attribute that is set (null, undefined and false are left out). */
function htmlAttrs(attrs: Record<string, unknown>): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (!/^[A-Za-z_:][-A-Za-z0-9_:.]*$/.test(name)) continue;
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    out += ` ${name.toLowerCase()}="${escapeAttr(text)}"`;
  }
  return out;
}

/** `style="text-align: …"` of Plane's `CustomTextAlignExtension` (paragraphs and headings). */
function alignStyle(attrs: Record<string, unknown>): Record<string, unknown> {
  const align = attrs.textAlign;
  return typeof align === 'string' && align !== '' ? { style: `text-align: ${align}` } : {};
}

/** Block node types: tag, the fixed attributes Plane's editor adds, and whether node attrs are written as they are. */
const BLOCKS: Record<string, (attrs: Record<string, unknown>) => [string, Record<string, unknown>]> = {
  paragraph: (a) => ['p', { class: 'editor-paragraph-block', ...alignStyle(a) }],
  heading: (a) => [
    `h${Math.min(6, Math.max(1, Number(a.level) || 1))}`,
    { class: 'editor-heading-block', ...alignStyle(a) },
  ],
  bulletList: () => ['ul', { class: 'list-disc pl-7 space-y-[--list-spacing-y]' }],
  orderedList: (a) => [
    'ol',
    {
      class: 'list-decimal pl-7 space-y-[--list-spacing-y]',
      ...(a.start !== undefined && Number(a.start) !== 1 ? { start: a.start } : {}),
      ...(a.type ? { type: a.type } : {}),
    },
  ],
  listItem: () => ['li', { class: 'not-prose space-y-2' }],
  taskList: () => ['ul', { 'data-type': 'taskList', class: 'not-prose pl-2 space-y-2' }],
  blockquote: () => ['blockquote', {}],
  table: () => ['table', {}],
  tableRow: () => ['tr', {}],
  tableCell: (a) => ['td', a],
  tableHeader: (a) => ['th', a],
  calloutComponent: (a) => ['div', a],
};

function nodeHtml(node: EditorJson): string {
  const attrs = node.attrs ?? {};
  const inner = () => (node.content ?? []).map(nodeHtml).join('');
  switch (node.type) {
    case 'text':
      return textHtml(node);
    case 'hardBreak':
      return '<br>';
    case 'horizontalRule':
      return '<div class="py-4 border-custom-border-400" data-type="horizontalRule"><div></div></div>';
    case 'codeBlock': {
      const lang = typeof attrs.language === 'string' && attrs.language ? { class: `language-${attrs.language}` } : {};
      const code = (node.content ?? []).map((c) => escapeText(c.text ?? '')).join('');
      return `<pre><code${htmlAttrs(lang)}>${code}</code></pre>`;
    }
    case 'taskItem': {
      const checked = attrs.checked === true;
      return (
        `<li class="flex" data-checked="${checked}" data-type="taskItem"><label>` +
        `<input type="checkbox"${checked ? ' checked="checked"' : ''}><span></span></label><div>${inner()}</div></li>`
      );
    }
    case 'table':
      return `<table><tbody>${inner()}</tbody></table>`;
    case 'image':
      return `<img${htmlAttrs({ ...attrs, class: 'rounded-md' })}>`;
    case 'imageComponent':
      return `<image-component${htmlAttrs(attrs)}></image-component>`;
    case 'mention':
      return `<mention-component${htmlAttrs(attrs)}></mention-component>`;
    default: {
      const block = BLOCKS[node.type];
      if (block) {
        const [tag, own] = block(attrs);
        return `<${tag}${htmlAttrs(own)}>${inner()}</${tag}>`;
      }
      // a node type of Plane's editor this walker does not know: an element of its own name
      const tag = node.type.replace(/[^A-Za-z0-9-]/g, '').toLowerCase() || 'div';
      return `<${tag}${htmlAttrs(attrs)}>${inner()}</${tag}>`;
    }
  }
}

const MARK_ORDER = ['link', 'bold', 'italic', 'underline', 'strike', 'code', 'customColor', 'textStyle', 'highlight'];

function markTags(type: string, attrs: Record<string, unknown>): [string, Record<string, unknown>] {
  switch (type) {
    case 'bold':
      return ['strong', {}];
    case 'italic':
      return ['em', {}];
    case 'underline':
      return ['u', {}];
    case 'strike':
      return ['s', {}];
    case 'code':
      return ['code', {}];
    case 'link':
      return [
        'a',
        {
          href: attrs.href,
          target: attrs.target ?? '_blank',
          rel: attrs.rel ?? 'noopener noreferrer nofollow',
          class: attrs.class ?? undefined,
        },
      ];
    case 'customColor':
      return [
        'span',
        {
          'data-text-color': attrs.color,
          'data-background-color': attrs.backgroundColor,
        },
      ];
    case 'highlight':
      return ['mark', { 'data-color': attrs.color }];
    default:
      return ['span', {}];
  }
}

function textHtml(node: EditorJson): string {
  const marks = [...(node.marks ?? [])].sort(
    (a, b) => rank(MARK_ORDER.indexOf(a.type)) - rank(MARK_ORDER.indexOf(b.type)),
  );
  let html = escapeText(node.text ?? '');
  for (const mark of marks.reverse()) {
    const [tag, attrs] = markTags(mark.type, mark.attrs ?? {});
    html = `<${tag}${htmlAttrs(attrs)}>${html}</${tag}>`;
  }
  return html;
}

const rank = (i: number) => (i < 0 ? MARK_ORDER.length : i);

// ---------------------------------------------------------------------------------------------
// HTML → Y.js (Plane's `getBinaryDataFromHTMLString`, for a page that has HTML but no document yet)

/** Inline HTML tags → mark names (with the mark's attributes read from the element). */
function markOf(el: HtmlElement): [string, Record<string, unknown>] | null {
  const a = el.attribs;
  switch (el.name) {
    case 'strong':
    case 'b':
      return ['bold', {}];
    case 'em':
    case 'i':
      return ['italic', {}];
    case 'u':
      return ['underline', {}];
    case 's':
    case 'del':
    case 'strike':
      return ['strike', {}];
    case 'code':
      return ['code', {}];
    case 'a':
      return a.href ? ['link', { href: a.href, target: a.target ?? '_blank', rel: a.rel ?? null, class: null }] : null;
    case 'span':
      if (a['data-text-color'] || a['data-background-color'])
        return [
          'customColor',
          { color: a['data-text-color'] ?? null, backgroundColor: a['data-background-color'] ?? null },
        ];
      return null;
    case 'mark':
      return ['highlight', { color: a['data-color'] ?? null }];
    default:
      return null;
  }
}

type Marks = Record<string, Record<string, unknown>>;
/** A node being built: an element with children, or a text run with marks. */
type Built = { kind: 'el'; name: string; attrs: Record<string, unknown>; children: Built[] } | Run;
type Run = { kind: 'text'; text: string; marks: Marks } | { kind: 'break' };

const INLINE_ATOMS = new Set(['mention-component', 'br', 'img']);
const BLOCK_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'hr',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'div',
  'image-component',
  'issue-embed-component',
  'section',
  'article',
  'header',
  'footer',
]);

const isElement = (n: ChildNode): n is HtmlElement => n.type === 'tag' || n.type === 'script' || n.type === 'style';
const textOf = (n: ChildNode): string =>
  n.type === 'text' ? (n as unknown as { data: string }).data : isElement(n) ? n.children.map(textOf).join('') : '';

/** The inline content of `nodes` (text runs with marks, hard breaks, mentions, images). */
function inlineRuns(nodes: ChildNode[], marks: Marks = {}): Built[] {
  const out: Built[] = [];
  for (const n of nodes) {
    if (n.type === 'text') {
      const text = (n as unknown as { data: string }).data.replace(/[\r\n\t ]+/g, ' ');
      if (text !== '') out.push({ kind: 'text', text, marks });
    } else if (isElement(n)) {
      if (n.name === 'script' || n.name === 'style') continue;
      if (n.name === 'br') out.push({ kind: 'break' });
      else if (n.name === 'mention-component')
        out.push({ kind: 'el', name: 'mention', attrs: { ...n.attribs }, children: [] });
      else {
        const mark = markOf(n);
        out.push(...inlineRuns(n.children, mark ? { ...marks, [mark[0]]: mark[1] } : marks));
      }
    }
  }
  return out;
}

function alignOf(el: HtmlElement): Record<string, unknown> {
  const m = /text-align:\s*(left|right|center|justify)/i.exec(el.attribs.style ?? '');
  return m ? { textAlign: m[1].toLowerCase() } : {};
}

const paragraph = (children: Built[], attrs: Record<string, unknown> = {}): Built => ({
  kind: 'el',
  name: 'paragraph',
  attrs,
  children,
});

/**
 * Block content of `nodes`: block elements become nodes, runs of inline content between them
 * become paragraphs (ProseMirror's `block+` content, which the editor's schema requires).
 */
function blocks(nodes: ChildNode[]): Built[] {
  const out: Built[] = [];
  let pending: ChildNode[] = [];
  const flush = () => {
    const runs = trimRuns(inlineRuns(pending));
    if (runs.length > 0) out.push(paragraph(runs));
    pending = [];
  };
  for (const n of nodes) {
    if (isElement(n) && BLOCK_TAGS.has(n.name)) {
      flush();
      out.push(...block(n));
    } else if (isElement(n) && INLINE_ATOMS.has(n.name) && n.name === 'img') {
      flush();
      out.push({ kind: 'el', name: 'image', attrs: imageAttrs(n), children: [] });
    } else pending.push(n);
  }
  flush();
  return out;
}

function imageAttrs(el: HtmlElement): Record<string, unknown> {
  const attrs: Record<string, unknown> = { ...el.attribs };
  delete attrs.class;
  return attrs;
}

/** Drops whitespace-only runs at the start and end of a block's inline content. */
function trimRuns(runs: Built[]): Built[] {
  const isBlank = (r: Built) => r.kind === 'text' && r.text.trim() === '';
  let [from, to] = [0, runs.length];
  while (from < to && isBlank(runs[from])) from++;
  while (to > from && isBlank(runs[to - 1])) to--;
  return runs.slice(from, to);
}

const blocksOrEmpty = (nodes: ChildNode[]) => {
  const content = blocks(nodes);
  return content.length > 0 ? content : [paragraph([])];
};

function block(el: HtmlElement): Built[] {
  const inline = () => trimRuns(inlineRuns(el.children));
  switch (el.name) {
    case 'p':
      return [paragraph(inline(), alignOf(el))];
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return [
        { kind: 'el', name: 'heading', attrs: { level: Number(el.name[1]), ...alignOf(el) }, children: inline() },
      ];
    case 'ul':
    case 'ol': {
      const task = el.attribs['data-type'] === 'taskList';
      const items = el.children.filter(isElement).filter((c) => c.name === 'li');
      const name = task ? 'taskList' : el.name === 'ol' ? 'orderedList' : 'bulletList';
      const attrs: Record<string, unknown> = el.name === 'ol' ? { start: Number(el.attribs.start ?? 1) || 1 } : {};
      const children: Built[] = items.map((li) =>
        task
          ? {
              kind: 'el',
              name: 'taskItem',
              attrs: { checked: li.attribs['data-checked'] === 'true' },
              children: blocksOrEmpty(
                li.children
                  .filter((c) => !(isElement(c) && c.name === 'label'))
                  .flatMap((c) =>
                    isElement(c) && c.name === 'div' && !c.attribs['data-block-type'] ? c.children : [c],
                  ),
              ),
            }
          : { kind: 'el', name: 'listItem', attrs: {}, children: blocksOrEmpty(li.children) },
      );
      return children.length > 0 ? [{ kind: 'el', name, attrs, children }] : [];
    }
    case 'li':
      return [
        {
          kind: 'el',
          name: 'bulletList',
          attrs: {},
          children: [{ kind: 'el', name: 'listItem', attrs: {}, children: blocksOrEmpty(el.children) }],
        },
      ];
    case 'blockquote':
      return [{ kind: 'el', name: 'blockquote', attrs: {}, children: blocksOrEmpty(el.children) }];
    case 'pre': {
      const code = el.children.find((c): c is HtmlElement => isElement(c) && c.name === 'code');
      const language = /language-(\S+)/.exec(code?.attribs.class ?? '')?.[1] ?? null;
      const text = textOf(el);
      return [
        {
          kind: 'el',
          name: 'codeBlock',
          attrs: language ? { language } : {},
          children: text ? [{ kind: 'text', text, marks: {} }] : [],
        },
      ];
    }
    case 'hr':
      return [{ kind: 'el', name: 'horizontalRule', attrs: {}, children: [] }];
    case 'image-component':
      return [{ kind: 'el', name: 'imageComponent', attrs: { ...el.attribs }, children: [] }];
    case 'issue-embed-component':
      return [{ kind: 'el', name: 'issue-embed-component', attrs: { ...el.attribs }, children: [] }];
    case 'table': {
      const rows = collectRows(el);
      return rows.length > 0 ? [{ kind: 'el', name: 'table', attrs: {}, children: rows }] : [];
    }
    case 'div':
      if (el.attribs['data-type'] === 'horizontalRule')
        return [{ kind: 'el', name: 'horizontalRule', attrs: {}, children: [] }];
      if (el.attribs['data-block-type'] === 'callout-component')
        return [
          { kind: 'el', name: 'calloutComponent', attrs: { ...el.attribs }, children: blocksOrEmpty(el.children) },
        ];
      return blocks(el.children);
    default:
      // tbody, thead, tr, td outside a table; section, article, …: their content
      return blocks(el.children);
  }
}

function collectRows(table: HtmlElement): Built[] {
  const rows: Built[] = [];
  const walk = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (n.name === 'tr') {
        const cells = n.children
          .filter(isElement)
          .filter((c) => c.name === 'td' || c.name === 'th')
          .map((c): Built => ({
            kind: 'el',
            name: c.name === 'th' ? 'tableHeader' : 'tableCell',
            attrs: cellAttrs(c),
            children: blocksOrEmpty(c.children),
          }));
        if (cells.length > 0) rows.push({ kind: 'el', name: 'tableRow', attrs: {}, children: cells });
      } else if (n.name === 'tbody' || n.name === 'thead' || n.name === 'tfoot') walk(n.children);
    }
  };
  walk(table.children);
  return rows;
}

function cellAttrs(c: HtmlElement): Record<string, unknown> {
  const attrs: Record<string, unknown> = {
    colspan: Number(c.attribs.colspan ?? 1) || 1,
    rowspan: Number(c.attribs.rowspan ?? 1) || 1,
  };
  if (c.attribs.colwidth) attrs.colwidth = c.attribs.colwidth.split(',').map(Number);
  return attrs;
}

/** Writes `built` into `parent` (already part of the document) at its end. */
function write(parent: Y.XmlFragment | Y.XmlElement, built: Built[]): void {
  let text: Y.XmlText | null = null;
  for (const node of built) {
    if (node.kind === 'text') {
      if (!text) {
        text = new Y.XmlText();
        parent.insert(parent.length, [text]);
      }
      text.insert(text.length, node.text, { ...node.marks });
      continue;
    }
    text = null;
    const el = new Y.XmlElement(node.kind === 'break' ? 'hardBreak' : node.name);
    parent.insert(parent.length, [el]);
    if (node.kind === 'el') {
      for (const [name, value] of Object.entries(node.attrs))
        if (value !== null && value !== undefined) el.setAttribute(name, value as string);
      write(el, node.children);
    }
  }
}

/**
 * A Y.js document (as an update, Plane's `description_binary`) holding `html` as the editor would
 * have it: paragraphs, headings, lists and task lists, quotes, code blocks, tables, rules, images,
 * mentions, callouts and the inline marks. Empty HTML gives one empty paragraph.
 */
export function documentFromHtml(html: string, seed = ''): Uint8Array {
  const doc = new Y.Doc();
  // The same page and HTML make the same document, item for item: two processes (replicas) that
  // convert it at once make updates Y.js merges as one, not the text twice.
  doc.clientID = clientIdOf(`${seed}\u0000${html}`);
  try {
    const content = blocks(parseDocument(html || '<p></p>').children);
    doc.transact(() => write(doc.getXmlFragment(EDITOR_FRAGMENT), content.length > 0 ? content : [paragraph([])]));
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}

/** A Y.js client id (32 bits, unsigned) from a string (FNV-1a). */
function clientIdOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
