import { BearerAuth } from '#common';
import { CoverImageService } from '#domain';
import { Controller, Get, Query } from '@nestjs/common';
import { intInRange, single } from '../shared/context';

/**
 * The web app's image pickers (Plane 0.25.3 `app/urls/external.py` `unsplash/`, `app/urls/project.py`
 * `project-covers/`): any signed-in user.
 */
@Controller()
@BearerAuth()
export class CoverImagesController {
  constructor(private readonly covers: CoverImageService) {}

  /**
   * `GET /api/unsplash/?query=&page=&per_page=`: `[]` without an instance `UNSPLASH_ACCESS_KEY`;
   * otherwise Unsplash's answer. 400 `INVALID_QUERY_PARAMETER`; 502 `UNSPLASH_UNAVAILABLE`.
   */
  @Get('unsplash')
  unsplash(@Query() query: Record<string, unknown>) {
    return this.covers.unsplash({
      query: single(query, 'query')?.trim() || undefined,
      page: intInRange(query, 'page', 1, 1000),
      perPage: intInRange(query, 'per_page', 20, 30),
    });
  }

  /** `GET /api/project-covers/`: the stock cover image URLs (none are shipped: `[]`). */
  @Get('project-covers')
  projectCovers(): string[] {
    return this.covers.projectCovers();
  }
}
