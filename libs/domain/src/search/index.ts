// The search room's door: what the API modules use.
export { ENTITY_SEARCH_TYPES, SearchService } from './search.service';
export type { EntitySearchQuery, EntitySearchType } from './search.service';
export { SearchFeatureModule } from './search.module';
