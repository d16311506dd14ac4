// The page feature's door: what other features, the API modules and the tests use.
// (The entities stay inside: `Page` would clash with #common's pagination `Page`.)
export { PAGE_ACCESS } from './page.entity';
export { PageService } from './page.service';
export type { CreatePageInput, PageDescriptionInput, PageInput, PageScope } from './page.service';
export type { PageDetailJson, PageJson, PageVersionDetailJson, PageVersionJson } from './page.view';
export { PageFeatureModule } from './page.module';
export { documentFromHtml, EDITOR_FRAGMENT, renderDocument } from './page-document';
export type { EditorJson } from './page-document';
