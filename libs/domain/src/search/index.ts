// The search room's door: what the API modules use.
export { SearchService } from './search.service';
export { SearchFeatureModule } from './search.module';
