import { BearerAuth, MeridianError } from '#common';
import { CoverImageService } from '#domain';
import { Controller, Get, Query } from '@nestjs/common';

function intParam(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be an integer from 1 to ${max}.`);
  }
  return Number(value);
}

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
  unsplash(@Query('query') query?: unknown, @Query('page') page?: unknown, @Query('per_page') perPage?: unknown) {
    if (query !== undefined && typeof query !== 'string') {
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'query was given more than once.');
    }
    return this.covers.unsplash({
      query: query?.trim() || undefined,
      page: intParam(page, 'page', 1, 1000),
      perPage: intParam(perPage, 'per_page', 20, 30),
    });
  }

  /** `GET /api/project-covers/`: the stock cover image URLs (none are shipped: `[]`). */
  @Get('project-covers')
  projectCovers(): string[] {
    return this.covers.projectCovers();
  }
}
