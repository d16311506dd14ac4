import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { Page, toEnvelope } from './page';

/** Writes every `Page` a handler returns as Plane's paginator envelope (spec parts 2 and 8). */
@Injectable()
export class PageEnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => (value instanceof Page ? toEnvelope(value) : value)));
  }
}
