import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { LiveCollaboration } from './live-collaboration';

/**
 * Plane's live editing websocket served by Meridian itself (`<LIVE_BASE_PATH>/collaboration`,
 * `LiveCollaboration`; docs/live.md "Meridian's own live endpoint"). No HTTP routes: it attaches to
 * the HTTP server's `upgrade` event when the application starts (`LIVE_ENABLED`).
 */
@Module({ imports: [DomainModule], providers: [LiveCollaboration], exports: [LiveCollaboration] })
export class LiveModule {}
