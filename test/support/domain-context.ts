import 'reflect-metadata';
import { AccessCacheModule, AppConfig, AppConfigModule } from '#common';
import { DatabaseModule, ReadyDatabase } from '#database';
import { DomainModule, setUpInstance, usePasswordHashCost } from '#domain';
import { DynamicModule, INestApplicationContext, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { openTestDatabase, TEST_ADMIN } from './test-app';

/**
 * The fast tier (`test/domain/`): the domain's services over a real, migrated database (the run's
 * template's state, as `startTestApp` gets: `openTestDatabase`), without HTTP: no Express, no guards, no pipes, no
 * supertest. A Nest application context with the configuration, the database and the `DomainModule`.
 */
export interface DomainContext {
  context: INestApplicationContext;
  config: AppConfig;
  database: ReadyDatabase;
  /** a provider of the domain, e.g. `d.get(StateService)` */
  get<T>(type: Type<T>): T;
  /** raw SQL against the test database, for set-up and checks */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

@Module({})
class DomainTestModule {
  static forRoot(config: AppConfig, database: ReadyDatabase): DynamicModule {
    return {
      module: DomainTestModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        AccessCacheModule.forRoot(),
        DomainModule,
      ],
    };
  }
}

/**
 * Starts the domain on a fresh, migrated database with the instance set up (`TEST_ADMIN`, as
 * `startTestApp` does), so sign-ups are allowed. `env` overrides the test configuration.
 */
export async function startDomainContext(env: Record<string, string> = {}): Promise<DomainContext> {
  const { config, database, drop } = await openTestDatabase(env);
  try {
    usePasswordHashCost(config);
    await database.dataSource.transaction((em) =>
      setUpInstance(em, { ...TEST_ADMIN, first_name: 'Instance', last_name: 'Admin', company_name: 'Meridian tests' }),
    );
    const context = await NestFactory.createApplicationContext(DomainTestModule.forRoot(config, database), {
      logger: false,
    });
    return {
      context,
      config,
      database,
      get: (type) => context.get(type, { strict: false }),
      sql: (text, params) => database.dataSource.query(text, params),
      close: async () => {
        await context.close(); // closes the database too (DatabaseModule)
        await drop();
      },
    };
  } catch (err) {
    await database.close();
    await drop();
    throw err;
  }
}
