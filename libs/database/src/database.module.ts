import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReadyDatabase } from './data-source';

const READY_DATABASE = Symbol('READY_DATABASE');

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(READY_DATABASE) private readonly database: ReadyDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/**
 * Hands an already started database (see `startDatabase`) to TypeORM's Nest integration, and
 * closes it, embedded engine and lock included, when the application shuts down.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(database: ReadyDatabase): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...database.dataSource.options, toRetry: () => false }),
          dataSourceFactory: async () => database.dataSource,
        }),
      ],
      providers: [{ provide: READY_DATABASE, useValue: database }, DatabaseLifecycle],
    };
  }
}
