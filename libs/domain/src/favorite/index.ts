// The favorite feature's door: what other features, the API modules and the tests use.
export { FAVORITE_ENTITY_TYPES, UserFavorite } from './user-favorite.entity';
export type { FavoriteEntityKind, FavoriteEntityType } from './user-favorite.entity';
export { FavoriteService } from './favorite.service';
export type { CreateFavoriteInput, UpdateFavoriteInput } from './favorite.service';
export type { FavoriteJson } from './favorite.view';
export { FavoriteFeatureModule } from './favorite.module';
