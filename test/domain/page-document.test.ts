import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentFromHtml, EDITOR_FRAGMENT, renderDocument } from '#domain';
import * as Y from 'yjs';

/** HTML → the editor's Y.js document → HTML and JSON, as the live endpoint loads and stores a page. */
const roundTrip = (html: string) => renderDocument(documentFromHtml(html));

describe('domain: page documents (Y.js ⇄ HTML and JSON, page-document.ts)', () => {
  it('writes the editor’s node and mark types as Plane’s editor renders them', () => {
    const { html, json } = roundTrip(
      '<h2>Title</h2><p>Some <strong>bold</strong>, <em>italic</em>, <a href="https://x.example/">link</a> text</p>',
    );
    assert.equal(
      html,
      '<h2 class="editor-heading-block">Title</h2>' +
        '<p class="editor-paragraph-block">Some <strong>bold</strong>, <em>italic</em>, ' +
        '<a href="https://x.example/" target="_blank" rel="noopener noreferrer nofollow">link</a> text</p>',
    );
    assert.deepEqual(json.content?.[0], {
      type: 'heading',
      attrs: { level: 2 },
      content: [{ type: 'text', text: 'Title' }],
    });
    assert.deepEqual(json.content?.[1].content?.[1], { type: 'text', text: 'bold', marks: [{ type: 'bold' }] });
  });

  it('keeps lists, task lists, quotes, code blocks, tables and mentions in the schema’s shape', () => {
    const { html, json } = roundTrip(
      '<ul><li>one</li><li><p>two</p></li></ul>' +
        '<ul data-type="taskList"><li data-checked="true" data-type="taskItem"><label><input type="checkbox"></label><div><p>done</p></div></li></ul>' +
        '<blockquote>quoted</blockquote><pre><code class="language-ts">let a = 1 &lt; 2;</code></pre>' +
        '<table><tbody><tr><th>h</th></tr><tr><td>c</td></tr></tbody></table>' +
        '<p>hi <mention-component id="m1" entity_name="user_mention" entity_identifier="u1"></mention-component></p>',
    );
    const types = json.content!.map((n) => n.type);
    assert.deepEqual(types, ['bulletList', 'taskList', 'blockquote', 'codeBlock', 'table', 'paragraph']);
    // list items and cells hold paragraphs (ProseMirror's `paragraph block*`), inline text is wrapped
    assert.equal(json.content![0].content![0].content![0].type, 'paragraph');
    assert.deepEqual(json.content![1].content![0].attrs, { checked: true });
    assert.equal(json.content![4].content![0].content![0].type, 'tableHeader');
    assert.deepEqual(json.content![3], {
      type: 'codeBlock',
      attrs: { language: 'ts' },
      content: [{ type: 'text', text: 'let a = 1 < 2;' }],
    });
    assert.match(html, /<pre><code class="language-ts">let a = 1 &lt; 2;<\/code><\/pre>/);
    assert.match(html, /<li class="flex" data-checked="true" data-type="taskItem">/);
    assert.match(
      html,
      /<mention-component id="m1" entity_name="user_mention" entity_identifier="u1"><\/mention-component>/,
    );
    assert.match(html, /<table><tbody><tr><th colspan="1" rowspan="1">/);
  });

  it('empty HTML is one empty paragraph; text outside blocks becomes a paragraph', () => {
    assert.equal(roundTrip('').html, '<p class="editor-paragraph-block"></p>');
    assert.equal(roundTrip('just text').html, '<p class="editor-paragraph-block">just text</p>');
    assert.equal(renderDocument(new Uint8Array()).html, '');
  });

  it('the same page and HTML make the same document (two replicas converting at once merge as one)', () => {
    const [a, b] = [documentFromHtml('<p>Same</p>', 'page-1'), documentFromHtml('<p>Same</p>', 'page-1')];
    const doc = new Y.Doc();
    Y.applyUpdate(doc, a);
    Y.applyUpdate(doc, b);
    assert.equal(doc.getXmlFragment(EDITOR_FRAGMENT).toString(), '<paragraph>Same</paragraph>');
    // another page's conversion is another client's: merged, the text is there twice
    const merged = new Y.Doc();
    Y.applyUpdate(merged, a);
    Y.applyUpdate(merged, documentFromHtml('<p>Same</p>', 'page-2'));
    assert.equal(merged.getXmlFragment(EDITOR_FRAGMENT).length, 2);
  });

  it('escapes text and attribute values, and a node type it does not know is kept under its own name', () => {
    const doc = new Y.Doc();
    const fragment = doc.getXmlFragment(EDITOR_FRAGMENT);
    const p = new Y.XmlElement('paragraph');
    const widget = new Y.XmlElement('issue-embed-component');
    fragment.insert(0, [p, widget]);
    widget.setAttribute('entity_identifier', 'a"b');
    const text = new Y.XmlText();
    p.insert(0, [text]);
    text.insert(0, '<script>&');
    const { html, json } = renderDocument(Y.encodeStateAsUpdate(doc));
    assert.equal(
      html,
      '<p class="editor-paragraph-block">&lt;script&gt;&amp;</p>' +
        '<issue-embed-component entity_identifier="a&quot;b"></issue-embed-component>',
    );
    assert.deepEqual(json.content?.[1], { type: 'issue-embed-component', attrs: { entity_identifier: 'a"b' } });
  });
});
