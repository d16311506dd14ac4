import { MeridianError } from '#common';
import { Injectable, Logger } from '@nestjs/common';
import { InstanceSettings } from '../instance-config';

/** Query of `GET /api/unsplash/`: `query` (free text; none lists the latest photos), `page` and `per_page` as Unsplash reads them. */
export interface UnsplashQuery {
  query?: string;
  page: number;
  perPage: number;
}

/**
 * The image pickers of Plane's web app (project covers, profile covers): Plane's
 * `plane/app/views/external/base.py` `UnsplashEndpoint` and `plane/app/views/project/base.py`
 * `ProjectCoverImageEndpoint`.
 */
@Injectable()
export class CoverImageService {
  private readonly logger = new Logger('CoverImages');

  constructor(private readonly settings: InstanceSettings) {}

  /**
   * Unsplash photos through the instance's `UNSPLASH_ACCESS_KEY` (the key never reaches the
   * browser). Without a key: `[]`, as Plane. With one: Unsplash's own answer (its search shape
   * `{total, total_pages, results}` for a query, an array of photos otherwise). 502
   * `UNSPLASH_UNAVAILABLE` when Unsplash does not answer within 10 seconds or answers with an error.
   */
  async unsplash(q: UnsplashQuery): Promise<unknown> {
    const key = (await this.settings.get('UNSPLASH_ACCESS_KEY')).trim();
    if (!key) return [];
    const params = new URLSearchParams({ client_id: key, page: String(q.page), per_page: String(q.perPage) });
    if (q.query) params.set('query', q.query);
    const url = `https://api.unsplash.com/${q.query ? 'search/photos' : 'photos'}/?${params.toString()}`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`Unsplash answered ${response.status}`);
      return (await response.json()) as unknown;
    } catch (e) {
      this.logger.warn(`Unsplash request failed: ${e instanceof Error ? e.message : String(e)}`);
      throw new MeridianError('UNSPLASH_UNAVAILABLE');
    }
  }

  /**
   * The stock project cover images (URLs). Plane lists them from its bucket's `static/project-cover/`;
   * Meridian ships none, so the list is empty and the web app offers uploads and Unsplash instead.
   */
  projectCovers(): string[] {
    return [];
  }
}
